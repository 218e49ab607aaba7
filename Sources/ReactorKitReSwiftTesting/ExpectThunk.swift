import Foundation
import ReactorKitReSwift
import XCTest

/// A test helper for a ``ReactorKitReSwift/Thunk``: ReSwift-Thunk's `ExpectThunk`. List the
/// actions the thunk is expected to dispatch and the states its `getState` calls return, in
/// order, then ``run(file:line:)`` a synchronous thunk or ``wait(timeout:file:line:description:)``
/// for an asynchronous one:
///
/// ```swift
/// ExpectThunk(fetchUser)
///   .getsState(AppState())
///   .dispatches(UserLoading())
///   .dispatches { XCTAssert($0 is UserLoaded) }
///   .wait()
/// ```
///
/// The thunk runs without a store: each `getState()` returns the next state listed with
/// ``getsState(_:file:line:)`` (`nil` once they are used up), and each dispatched action is
/// recorded in ``dispatched`` and checked against the next expected one. An expectation left
/// unmet when the thunk is done (``run(file:line:)``) or when the wait ends fails the test at
/// the line that listed it.
///
/// Thread-safe: the thunk may dispatch and read the state from any thread. ``wait(timeout:file:line:description:)``
/// returns once every listed dispatch and state has been used and every dispatch assertion has
/// returned, so an expectation met by a background thread is never reported unmet (ReSwift-Thunk's
/// `wait` could return between an asynchronous dispatch and the `getState` after it).
public class ExpectThunk<State>: @unchecked Sendable {
  // Safety: every stored property but `thunk` is guarded by `condition` (`failureHandler` is
  // set before the thunk runs); `thunk` is constant.
  /// An expectation and the place in the test that listed it.
  private struct Expected<Value> {
    let value: Value
    let description: String
    let file: StaticString
    let line: UInt

    var location: (description: String, file: StaticString, line: UInt) {
      (description, file, line)
    }
  }

  private let condition = NSCondition()
  private var dispatchExpectations: [Expected<DispatchFunction>] = []
  private var stateExpectations: [Expected<State>] = []
  /// Dispatch assertions taken from the list and still running.
  private var runningAssertions = 0
  private var recorded: [Action] = []
  private let thunk: Thunk<State>
  /// Receives each failure instead of `XCTFail` (for the helper's own tests).
  package var failureHandler: ((_ message: String, _ file: StaticString, _ line: UInt) -> Void)?

  /// Creates a helper that runs `thunk`.
  public init(_ thunk: Thunk<State>) {
    self.thunk = thunk
  }

  /// The actions the thunk dispatched so far, in order.
  public var dispatched: [Action] {
    get { condition.withLock { recorded } }
    set { condition.withLock { recorded = newValue } }
  }
}

extension ExpectThunk {
  /// Expects the next dispatched action to equal `expected`.
  public func dispatches<A: Action & Equatable>(
    _ expected: A, file: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    append(
      dispatch: { [unowned self] received in
        if received as? A != expected {
          fail("Dispatched action does not equal expected: \(received) \(expected)", file, line)
        }
      }, description: "Unfulfilled dispatches: \(expected)", file: file, line: line)
  }

  /// Expects another action to be dispatched and hands it to `assertion`.
  public func dispatches(
    file: StaticString = #filePath, line: UInt = #line,
    dispatch assertion: @escaping DispatchFunction
  ) -> Self {
    append(
      dispatch: assertion, description: "Unfulfilled dispatches: dispatch assertion",
      file: file, line: line)
  }

  /// Makes the next `getState()` of the thunk return `state`, and expects that call.
  public func getsState(_ state: State, file: StaticString = #filePath, line: UInt = #line)
    -> Self
  {
    condition.withLock {
      stateExpectations.append(
        Expected(
          value: state, description: "Unfulfilled getsState: \(state)", file: file, line: line))
    }
    return self
  }

  private func append(
    dispatch assertion: @escaping DispatchFunction, description: String, file: StaticString,
    line: UInt
  ) -> Self {
    condition.withLock {
      dispatchExpectations.append(
        Expected(value: assertion, description: description, file: file, line: line))
    }
    return self
  }
}

extension ExpectThunk {
  /// Runs the thunk through ``ReactorKitReSwift/createThunkMiddleware()`` and, once its body
  /// returns, fails for every expectation left unmet. For a thunk that does all its work
  /// synchronously.
  @discardableResult
  public func run(file: StaticString = #filePath, line: UInt = #line) -> Self {
    start()
    failUnmet()
    return self
  }

  /// Runs the thunk and waits up to `seconds` for every expectation to be met, from any thread;
  /// fails if they are not, and for each one left unmet. For a thunk that dispatches later
  /// (from a callback or another queue).
  ///
  /// On the main thread the wait runs the run loop, so work the thunk queues on the main queue
  /// runs meanwhile.
  @discardableResult
  public func wait(
    timeout seconds: TimeInterval = 1, file: StaticString = #filePath, line: UInt = #line,
    description: String = "\(ExpectThunk.self)"
  ) -> Self {
    start()
    if !waitUntilMet(deadline: Date().addingTimeInterval(seconds)) {
      fail("Asynchronous wait failed: unfulfilled dispatches (\(description))", file, line)
    }
    failUnmet()
    return self
  }

  private func start() {
    createThunkMiddleware()(
      { [self] action in receive(action) }, { [self] in nextState() }
    )({ _ in })(thunk)
  }

  private func receive(_ action: Action) {
    let assertion = condition.withLock { () -> DispatchFunction? in
      recorded.append(action)
      guard !dispatchExpectations.isEmpty else { return nil }
      runningAssertions += 1
      return dispatchExpectations.removeFirst().value
    }
    guard let assertion else { return }
    assertion(action)
    condition.withLock {
      runningAssertions -= 1
      condition.broadcast()
    }
  }

  private func nextState() -> State? {
    condition.withLock {
      defer { condition.broadcast() }
      return stateExpectations.isEmpty ? nil : stateExpectations.removeFirst().value
    }
  }

  /// Whether every expectation is met; call with `condition` locked.
  private var isMetLocked: Bool {
    dispatchExpectations.isEmpty && stateExpectations.isEmpty && runningAssertions == 0
  }

  /// Waits until every expectation is met or `deadline` passes; returns whether they are met.
  private func waitUntilMet(deadline: Date) -> Bool {
    if Thread.isMainThread {
      // Run the main run loop in short slices so main-queue work of the thunk can run.
      while !condition.withLock({ isMetLocked }) {
        let now = Date()
        guard now < deadline else { return false }
        RunLoop.current.run(until: min(deadline, now + 0.005))
      }
      return true
    }
    condition.lock()
    defer { condition.unlock() }
    while !isMetLocked {
      guard condition.wait(until: deadline) else { return isMetLocked }
    }
    return true
  }

  private func failUnmet() {
    let (dispatches, states) = condition.withLock {
      (dispatchExpectations.map(\.location), stateExpectations.map(\.location))
    }
    for unmet in dispatches + states {
      fail(unmet.description, unmet.file, unmet.line)
    }
  }

  private func fail(_ message: String, _ file: StaticString, _ line: UInt) {
    if let failureHandler = condition.withLock({ failureHandler }) {
      failureHandler(message, file, line)
    } else {
      XCTFail(message, file: file, line: line)
    }
  }
}
