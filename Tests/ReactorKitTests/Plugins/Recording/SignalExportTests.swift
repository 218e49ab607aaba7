import Dispatch
import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 32, part 1: a flight recording exported when the process is asked to stop by a
/// signal. The tests use `SIGUSR1`/`SIGUSR2` and a `then` that does not end the process.
final class SignalExportTests: ResourceTestCase {
  private func temporaryURL() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("signal-export-\(UUID().uuidString).jsonl")
  }

  func test_aSignal_exportsTheStoreRecording_thenRunsThen() throws {
    // given
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry)
    let store = Store(reducer: DemoState.reducer, state: DemoState(), plugins: [flight.forStore()])
    store.dispatch(DemoAction.add("milk"))
    let received = DispatchSemaphore(value: 0)
    let signals = LockedSignals()
    let watching = flight.exportWhenSignalled(to: url, signals: [SIGUSR1]) { number in
      signals.append(number)
      received.signal()
    }
    defer { watching.dispose() }
    // when
    kill(getpid(), SIGUSR1)
    // then
    XCTAssertEqual(received.wait(timeout: .now() + 10), .success, "the signal was not handled")
    XCTAssertEqual(signals.all, [SIGUSR1])
    let recording = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    XCTAssertEqual(recording.actions.count, 1)
    XCTAssertEqual(recording.checkpoints.count, 1)
  }

  func test_aSignal_exportsTheReactorRecording() throws {
    // given
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let reactor = SignalCounterReactor()
    let flight = ReactorFlightRecorder(recording: reactor)
    reactor.action.onNext(.add(2))
    let received = DispatchSemaphore(value: 0)
    let watching = flight.exportWhenSignalled(to: url, signals: [SIGUSR2]) { _ in
      received.signal()
    }
    defer { watching.dispose() }
    // when
    kill(getpid(), SIGUSR2)
    // then
    XCTAssertEqual(received.wait(timeout: .now() + 10), .success, "the signal was not handled")
    let recording = try ReactorRecording<SignalCounterReactor>(contentsOf: url)
    XCTAssertEqual(recording.mutations, [.add(2)])
  }

  func test_aFailedExport_stillRunsThen() {
    // given: a folder that does not exist
    let url = temporaryURL().appendingPathComponent("missing/export.jsonl")
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry)
    let received = DispatchSemaphore(value: 0)
    let watching = flight.exportWhenSignalled(to: url, signals: [SIGUSR1]) { _ in
      received.signal()
    }
    defer { watching.dispose() }
    // when
    kill(getpid(), SIGUSR1)
    // then
    XCTAssertEqual(received.wait(timeout: .now() + 10), .success)
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
  }

  func test_dispose_removesOnlyItsOwnWatch() {
    // given: two recorders watch the same signal
    let first = FlightRecorder<DemoState>(registry: DemoState.registry)
    let second = FlightRecorder<DemoState>(registry: DemoState.registry)
    let firstURL = temporaryURL()
    let secondURL = temporaryURL()
    defer {
      try? FileManager.default.removeItem(at: firstURL)
      try? FileManager.default.removeItem(at: secondURL)
    }
    let signals = LockedSignals()
    let received = DispatchSemaphore(value: 0)
    let firstWatch = first.exportWhenSignalled(to: firstURL, signals: [SIGUSR2]) { _ in
      signals.append(1)
    }
    let secondWatch = second.exportWhenSignalled(to: secondURL, signals: [SIGUSR2]) { _ in
      signals.append(2)
      received.signal()
    }
    defer { secondWatch.dispose() }
    // when
    firstWatch.dispose()
    kill(getpid(), SIGUSR2)
    // then
    XCTAssertEqual(received.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(signals.all, [2])
    XCTAssertFalse(FileManager.default.fileExists(atPath: firstURL.path))
    XCTAssertTrue(FileManager.default.fileExists(atPath: secondURL.path))
  }
}

private final class LockedSignals: @unchecked Sendable {
  // Safety: `numbers` is only touched with `lock` held.
  private let lock = NSLock()
  private var numbers: [Int32] = []

  func append(_ number: Int32) {
    lock.lock()
    numbers.append(number)
    lock.unlock()
  }

  var all: [Int32] {
    lock.lock()
    defer { lock.unlock() }
    return numbers
  }
}

private final class SignalCounterReactor: Reactor {
  enum Action { case add(Int) }
  enum Mutation: Codable, Equatable { case add(Int) }
  struct State: Codable, Equatable { var count = 0 }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .add(let amount): return .just(.add(amount))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    switch mutation {
    case .add(let amount): return State(count: state.count + amount)
    }
  }
}
