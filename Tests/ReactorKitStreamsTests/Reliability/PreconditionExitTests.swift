import Foundation
import ReactorKitStreams
import Testing

/// The documented preconditions of the stream core stop the program: each test runs its body
/// in a child process that must exit with a failure.
@Suite struct PreconditionExitTests {
  @Test func take_negativeCount_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).take(-1)
    }
  }

  @Test func skip_negativeCount_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).skip(-1)
    }
  }

  @Test func takeLast_negativeCount_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).takeLast(-1)
    }
  }

  @Test func elementAt_negativeIndex_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).element(at: -1)
    }
  }

  @Test func share_negativeReplay_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).share(replay: -1)
    }
  }

  @Test func retry_negativeAttemptCount_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(1).retry(-1)
    }
  }

  @Test func merge_maxConcurrentZero_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.just(Observable.just(1)).merge(maxConcurrent: 0)
    }
  }

  @Test func replaySubject_negativeBufferSize_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = ReplaySubject<Int>.create(bufferSize: -1)
    }
  }

  @Test func singleAssignmentDisposable_assignedTwice_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let disposable = SingleAssignmentDisposable()
      disposable.setDisposable(Disposables.create())
      disposable.setDisposable(Disposables.create())
    }
  }

  #if DEBUG
    @Test func bindOnNext_error_stopsTheProgramInDebugBuilds() async {
      await #expect(processExitsWith: .failure) {
        _ = Observable<Int>.error(ExitTestError()).bind(onNext: { _ in })
      }
    }

    @Test func bindToObserver_error_stopsTheProgramInDebugBuilds() async {
      await #expect(processExitsWith: .failure) {
        let subject = PublishSubject<Int>()
        _ = Observable<Int>.error(ExitTestError()).bind(to: subject)
      }
    }
  #endif
}

private struct ExitTestError: Error {}
