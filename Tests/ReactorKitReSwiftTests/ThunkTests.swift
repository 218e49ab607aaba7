import Dispatch
import Foundation
import ReactorKitReSwift
import ReactorKitReSwiftTesting
import XCTest

// ReSwift-Thunk 2.0.1's behaviour, checked the way its own tests check it, plus the store,
// thread-safety and failure reports of `ExpectThunk` (issue 31).

private struct ThunkState: StateType, Equatable { var count = 0 }
private struct Other: StateType {}
private struct Add: Action, Equatable { var amount = 1 }
private struct Ping: Action, Equatable {}
private struct Pong: Action, Equatable {}

private func thunkReducer(action: Action, state: ThunkState?) -> ThunkState {
  var state = state ?? ThunkState()
  if let add = action as? Add { state.count += add.amount }
  return state
}

/// A thunk's `dispatch` and `getState` handed to another thread: ReSwift's closure types are not
/// `Sendable`, and the thunk's helpers are thread-safe.
private struct Handles<State>: @unchecked Sendable {
  let dispatch: DispatchFunction
  let getState: () -> State?
}

/// Failures an `ExpectThunk` reported, instead of failing the test.
private final class Failures: @unchecked Sendable {
  // Safety: guarded by `lock`.
  private let lock = NSLock()
  private var messages: [String] = []
  var all: [String] { lock.withLock { messages } }
  func record(_ message: String, _: StaticString, _: UInt) {
    lock.withLock { messages.append(message) }
  }
}

final class ThunkTests: XCTestCase {
  func test_middleware_passesAnActionOn() {
    // given
    let middleware: Middleware<ThunkState> = createThunkMiddleware()
    var passedOn: [Action] = []
    // when
    middleware({ _ in }, { nil })({ passedOn.append($0) })(Add())
    // then
    XCTAssertEqual(passedOn.compactMap { $0 as? Add }, [Add()])
  }

  func test_middleware_runsAThunkInsteadOfPassingItOn() {
    // given
    let middleware: Middleware<ThunkState> = createThunkMiddleware()
    var passedOn: [Action] = []
    var dispatched: [Action] = []
    var seenState: ThunkState?
    let thunk = Thunk<ThunkState> { dispatch, getState in
      seenState = getState()
      dispatch(Ping())
    }
    // when
    middleware({ dispatched.append($0) }, { ThunkState(count: 7) })({ passedOn.append($0) })(
      thunk)
    // then
    XCTAssertTrue(passedOn.isEmpty)
    XCTAssertEqual(seenState, ThunkState(count: 7))
    XCTAssertEqual(dispatched.compactMap { $0 as? Ping }, [Ping()])
  }

  func test_middleware_passesAThunkOfAnotherStateOn() {
    // given
    let middleware: Middleware<ThunkState> = createThunkMiddleware()
    var passedOn = 0
    var ran = false
    // when
    middleware({ _ in }, { nil })({ _ in passedOn += 1 })(Thunk<Other> { _, _ in ran = true })
    // then
    XCTAssertEqual(passedOn, 1)
    XCTAssertFalse(ran)
  }

  func test_store_runsADispatchedThunkWithItsDispatchAndState() {
    // given
    let store = Store(reducer: thunkReducer, state: nil, middleware: [createThunkMiddleware()])
    var seen: [Int?] = []
    let thunk = Thunk<ThunkState> { dispatch, getState in
      seen.append(getState()?.count)
      dispatch(Add(amount: 2))
      dispatch(Add(amount: 3))
    }
    // when
    store.dispatch(Add())
    store.dispatch(thunk)
    // then: the thunk is not reduced; what it dispatched is, before `dispatch` returns
    XCTAssertEqual(seen, [1])
    XCTAssertEqual(store.state.count, 6)
  }

  func test_store_thunkDispatchingLater_isReducedThen() {
    // given
    let store = Store(reducer: thunkReducer, state: nil, middleware: [createThunkMiddleware()])
    let done = expectation(description: "the thunk's later dispatch")
    let thunk = Thunk<ThunkState> { dispatch, getState in
      let handles = Handles(dispatch: dispatch, getState: getState)
      DispatchQueue.global().async {
        handles.dispatch(Add(amount: 5))
        XCTAssertEqual(handles.getState()?.count, 5)
        done.fulfill()
      }
    }
    // when
    store.dispatch(thunk)
    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(store.state.count, 5)
  }

  func test_expectThunk_run_checksDispatchesAndStatesInOrder() {
    // given
    let thunk = Thunk<ThunkState> { dispatch, getState in
      dispatch(Ping())
      XCTAssertNotNil(getState())
      dispatch(Pong())
    }
    // when
    let expect = ExpectThunk(thunk)
      .dispatches { XCTAssert($0 is Ping) }
      .getsState(ThunkState())
      .dispatches(Pong())
      .run()
    // then
    XCTAssertEqual(expect.dispatched.count, 2)
  }

  func test_expectThunk_wait_metByABackgroundThread_neverReportsUnmet() {
    // given: ReSwift-Thunk's waiting test, whose `wait` could return between the late
    // dispatch and the `getState` after it (here held apart by a pause, so such a `wait`
    // would report the state unmet every time)
    for round in 0..<3 {
      let failures = Failures()
      let thunk = Thunk<ThunkState> { dispatch, getState in
        dispatch(Ping())
        XCTAssertNotNil(getState())
        let handles = Handles(dispatch: dispatch, getState: getState)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.002) {
          handles.dispatch(Pong())
          Thread.sleep(forTimeInterval: 0.03)
          XCTAssertNotNil(handles.getState())
        }
        dispatch(Ping())
      }
      let expect = ExpectThunk(thunk)
      expect.failureHandler = failures.record
      // when
      expect
        .dispatches { XCTAssert($0 is Ping) }
        .getsState(ThunkState())
        .dispatches { XCTAssert($0 is Ping) }
        .dispatches(Pong())
        .getsState(ThunkState(count: 1))
        .wait(timeout: 5)
      // then
      XCTAssertEqual(failures.all, [], "round \(round)")
      XCTAssertEqual(expect.dispatched.count, 3, "round \(round)")
    }
  }

  func test_expectThunk_wait_letsMainQueueWorkRun() {
    // given: a thunk that dispatches on the main queue while the test waits on it
    let thunk = Thunk<ThunkState> { dispatch, getState in
      let handles = Handles(dispatch: dispatch, getState: getState)
      DispatchQueue.main.async { handles.dispatch(Ping()) }
    }
    let failures = Failures()
    let expect = ExpectThunk(thunk)
    expect.failureHandler = failures.record
    // when
    expect.dispatches(Ping()).wait(timeout: 5)
    // then
    XCTAssertEqual(failures.all, [])
  }

  func test_expectThunk_reportsEachUnmetOrWrongExpectation() {
    // given
    let thunk = Thunk<ThunkState> { dispatch, _ in dispatch(Ping()) }
    let failures = Failures()
    let expect = ExpectThunk(thunk)
    expect.failureHandler = failures.record
    // when
    expect
      .dispatches(Pong())
      .dispatches(Ping())
      .getsState(ThunkState(count: 3))
      .run()
    // then
    XCTAssertEqual(
      failures.all,
      [
        "Dispatched action does not equal expected: Ping() Pong()",
        "Unfulfilled dispatches: Ping()",
        "Unfulfilled getsState: ThunkState(count: 3)",
      ])
  }

  func test_expectThunk_wait_timesOutWithAFailure() {
    // given: a thunk that never dispatches
    let failures = Failures()
    let expect = ExpectThunk(Thunk<ThunkState> { _, _ in })
    expect.failureHandler = failures.record
    // when
    expect.dispatches(Ping()).wait(timeout: 0.05, description: "never")
    // then
    XCTAssertEqual(
      failures.all,
      [
        "Asynchronous wait failed: unfulfilled dispatches (never)",
        "Unfulfilled dispatches: Ping()",
      ])
  }
}
