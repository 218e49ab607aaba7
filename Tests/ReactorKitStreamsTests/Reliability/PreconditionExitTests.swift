import Foundation
import ReactorKitStreams
import Testing

/// The documented preconditions of the stream core stop the program: each test runs its body
/// in a child process that must exit with a failure and print the precondition's own message
/// on standard error (any other crash fails the test).
@Suite struct PreconditionExitTests {
  /// Checks that the child process's standard error names `message`.
  private func expectMessage(
    _ result: ExitTest.Result?, _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let standardError = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
    #expect(
      standardError?.contains(message) == true,
      "standard error: \(standardError ?? "none")", sourceLocation: sourceLocation)
  }

  @Test func take_negativeCount_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).take(-1)
    }
    expectMessage(result, "take(_:) needs a count of at least 0.")
  }

  @Test func skip_negativeCount_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).skip(-1)
    }
    expectMessage(result, "skip(_:) needs a count of at least 0.")
  }

  @Test func takeLast_negativeCount_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).takeLast(-1)
    }
    expectMessage(result, "takeLast(_:) needs a count of at least 0.")
  }

  @Test func elementAt_negativeIndex_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).element(at: -1)
    }
    expectMessage(result, "element(at:) needs an index of at least 0.")
  }

  @Test func share_negativeReplay_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).share(replay: -1)
    }
    expectMessage(result, "share(replay:scope:) needs a replay count of at least 0.")
  }

  @Test func retry_negativeAttemptCount_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(1).retry(-1)
    }
    expectMessage(result, "retry(_:) needs a count of at least 0.")
  }

  @Test func merge_maxConcurrentZero_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.just(Observable.just(1)).merge(maxConcurrent: 0)
    }
    expectMessage(result, "merge(maxConcurrent:) needs a limit of at least 1.")
  }

  @Test func replaySubject_negativeBufferSize_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ReplaySubject<Int>.create(bufferSize: -1)
    }
    expectMessage(result, "ReplaySubject.create(bufferSize:) needs a size of at least 0.")
  }

  @Test func singleAssignmentDisposable_assignedTwice_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let disposable = SingleAssignmentDisposable()
      disposable.setDisposable(Disposables.create())
      disposable.setDisposable(Disposables.create())
    }
    expectMessage(result, "SingleAssignmentDisposable: a disposable was already assigned.")
  }

  #if DEBUG
    @Test func bindOnNext_error_stopsTheProgramInDebugBuilds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Observable<Int>.error(ExitTestError()).bind(onNext: { _ in })
      }
      expectMessage(result, "Binding error: ExitTestError()")
    }

    @Test func bindToObserver_error_stopsTheProgramInDebugBuilds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let subject = PublishSubject<Int>()
        _ = Observable<Int>.error(ExitTestError()).bind(to: subject)
      }
      expectMessage(result, "Binding error: ExitTestError()")
    }
  #endif
}

private struct ExitTestError: Error {}
