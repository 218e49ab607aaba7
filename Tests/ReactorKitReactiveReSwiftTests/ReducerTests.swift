import ReactorKitReactiveReSwift
import XCTest

/// `Reducer` and `concatReducers` (ReactiveReSwift's ReducerTests).
final class ReducerTests: XCTestCase {
  func test_concatReducers_callsEachReducerOnceWithTheAction() {
    // given
    var calls: [String] = []
    let first: Reducer<CounterState> = { action, state in
      calls.append("first \(type(of: action))")
      return state
    }
    let second: Reducer<CounterState> = { action, state in
      calls.append("second \(type(of: action))")
      return state
    }

    // when
    _ = concatReducers(first, second)(Noop(), CounterState())

    // then
    XCTAssertEqual(calls, ["first Noop", "second Noop"])
  }

  func test_concatReducers_feedsEachResultToTheNext() {
    // given
    let combined = concatReducers(increaseBy(1), increaseBy(2), increaseBy(10))

    // when
    let state = combined(Noop(), CounterState())

    // then
    XCTAssertEqual(state.count, 13)
  }

  func test_concatReducers_single_isTheReducer() {
    XCTAssertEqual(concatReducers(increaseBy(4))(Noop(), CounterState()).count, 4)
  }

  func test_concatReducers_firstAndRestArray_runsInOrder() {
    // given
    var calls: [String] = []
    let record: (String) -> Reducer<CounterState> = { name in
      { _, state in
        calls.append(name)
        return CounterState(count: state.count * 10 + calls.count)
      }
    }

    // when
    let state = concatReducers(first: record("a"), rest: [record("b"), record("c")])(
      Noop(), CounterState())

    // then
    XCTAssertEqual(calls, ["a", "b", "c"])
    XCTAssertEqual(state.count, 123)
    XCTAssertEqual(concatReducers(first: increaseBy(5), rest: [])(Noop(), CounterState()).count, 5)
  }
}
