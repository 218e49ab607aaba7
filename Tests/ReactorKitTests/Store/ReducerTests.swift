import ReactorKit
import ReactorKitTesting
import XCTest

final class ReducerTests: ResourceTestCase {
  func test_reducer_inoutFormMutatesInPlace() {
    // given
    let reducer = storeCounterReducer
    var state = StoreCounterState()
    // when
    reducer.reduce(&state, StoreCounterAction.add(3))
    reducer.reduce(&state, StoreCounterAction.increment)
    // then
    XCTAssertEqual(state.count, 4)
  }

  func test_reducer_pureFormReturnsNewState() {
    // given
    let reducer = Reducer<Int>.pure({ state, action in
      guard case StoreCounterAction.add(let amount) = action else { return state }
      return state + amount
    })
    var state = 1
    // when
    reducer.reduce(&state, StoreCounterAction.add(2))
    reducer.reduce(&state, StoreLogAction(text: "ignored"))
    // then
    XCTAssertEqual(state, 3)
  }

  @available(*, deprecated)
  func test_reducer_deprecatedPureInitializerKeepsReactiveReSwiftOrder() {
    // given
    let reducer = Reducer<Int>(pure: { action, state in
      guard case StoreCounterAction.add(let amount) = action else { return state }
      return state + amount
    })
    var state = 1
    // when
    reducer.reduce(&state, StoreCounterAction.add(2))
    // then
    XCTAssertEqual(state, 3)
  }

  func test_reducer_combineRunsInOrderOnTheSameState() {
    // given
    let double = Reducer<[String]> { state, _ in state.append("first") }
    let second = Reducer<[String]> { state, _ in state.append("second:\(state.count)") }
    let third = Reducer<[String]> { state, _ in state.append("third:\(state.count)") }
    var state: [String] = []
    // when
    Reducer.combine(double, second, third).reduce(&state, StoreCounterAction.increment)
    // then
    XCTAssertEqual(state, ["first", "second:1", "third:2"])
  }

  func test_reducer_combineArrayMatchesVariadicAndHandlesEdgeCounts() {
    // given
    let add = Reducer<Int> { state, _ in state += 1 }
    let times = Reducer<Int> { state, _ in state *= 10 }
    var fromArray = 1
    var fromVariadic = 1
    var fromEmpty = 5
    var fromSingle = 5
    // when
    Reducer.combine([add, times]).reduce(&fromArray, StoreCounterAction.increment)
    Reducer.combine(add, times).reduce(&fromVariadic, StoreCounterAction.increment)
    Reducer<Int>.combine([]).reduce(&fromEmpty, StoreCounterAction.increment)
    Reducer.combine([times]).reduce(&fromSingle, StoreCounterAction.increment)
    // then
    XCTAssertEqual(fromArray, 20)
    XCTAssertEqual(fromVariadic, 20)
    XCTAssertEqual(fromEmpty, 5, "An empty combination must leave the state alone.")
    XCTAssertEqual(fromSingle, 50)
  }

  func test_reducer_onHandlesOnlyItsActionType() {
    // given
    let reducer = Reducer<[String]>.on(StoreLogAction.self) { state, action in
      state.append(action.text)
    }
    var state: [String] = []
    // when
    reducer.reduce(&state, StoreLogAction(text: "a"))
    reducer.reduce(&state, StoreCounterAction.increment)
    reducer.reduce(&state, StoreLogAction(text: "b"))
    // then
    XCTAssertEqual(state, ["a", "b"])
  }

  func test_reducer_onCastsActionsWithReferencesAndSubclasses() {
    // given
    let strings = Reducer<[String]>.on(StoreLogAction.self) { state, action in
      state.append(action.text)
    }
    let classes = Reducer<[String]>.on(BaseAction.self) { state, action in
      state.append(action.name)
    }
    var state: [String] = []
    // when: heap-backed payloads, many times (a wrong copy would crash or leak)
    for index in 0..<2_000 {
      let text = String(repeating: "x", count: 40) + "\(index)"
      strings.reduce(&state, StoreLogAction(text: text))
      classes.reduce(&state, index.isMultiple(of: 2) ? BaseAction() : DerivedAction())
    }
    // then
    XCTAssertEqual(state.count, 4_000)
    XCTAssertEqual(state[0], String(repeating: "x", count: 40) + "0")
    XCTAssertEqual(state[1], "base")
    XCTAssertEqual(state[3], "derived")
  }

  func test_reducer_combinedOnReducersRouteManyActionTypes() {
    // given: more action types than the miss cache has slots, each handled by one reducer
    let reducer = Reducer<[String]>.combine(
      .on(TypedAction<Int>.self) { state, _ in state.append("Int") },
      .on(TypedAction<String>.self) { state, _ in state.append("String") },
      .on(TypedAction<Double>.self) { state, _ in state.append("Double") },
      .on(TypedAction<Bool>.self) { state, _ in state.append("Bool") },
      .on(TypedAction<UInt8>.self) { state, _ in state.append("UInt8") },
      .on(TypedAction<Int8>.self) { state, _ in state.append("Int8") },
      .on(TypedAction<UInt16>.self) { state, _ in state.append("UInt16") },
      .on(TypedAction<Int16>.self) { state, _ in state.append("Int16") },
      .on(TypedAction<UInt32>.self) { state, _ in state.append("UInt32") },
      .on(TypedAction<Int32>.self) { state, _ in state.append("Int32") },
      .on(BaseAction.self) { state, action in state.append(action.name) })
    let actions: [any Action] = [
      TypedAction<Int>(), TypedAction<String>(), TypedAction<Double>(), TypedAction<Bool>(),
      TypedAction<UInt8>(), TypedAction<Int8>(), TypedAction<UInt16>(), TypedAction<Int16>(),
      TypedAction<UInt32>(), TypedAction<Int32>(), DerivedAction(), StoreCounterAction.reset,
    ]
    var state: [String] = []
    // when: every action several times, so cached misses are exercised
    for _ in 0..<3 {
      for action in actions { reducer.reduce(&state, action) }
    }
    // then
    let once = [
      "Int", "String", "Double", "Bool", "UInt8", "Int8", "UInt16", "Int16", "UInt32", "Int32",
      "derived",
    ]
    XCTAssertEqual(state, once + once + once)
  }

  func test_reducer_liftAppliesToChildAndLeavesSiblingsAlone() {
    // given
    let child = Reducer<Int>.on(StoreCounterAction.self) { count, action in
      if case .add(let amount) = action { count += amount }
    }
    let app = Reducer<AppFake>.combine(
      child.lift(\.first),
      Reducer<String>.on(StoreLogAction.self) { text, action in text += action.text }
        .lift(\.name))
    var state = AppFake()
    // when
    app.reduce(&state, StoreCounterAction.add(4))
    app.reduce(&state, StoreLogAction(text: "x"))
    // then
    XCTAssertEqual(state, AppFake(first: 4, second: 0, name: "x", optional: nil))
  }

  func test_reducer_liftNestedPath() {
    // given
    let reducer = Reducer<Int> { count, _ in count += 1 }.lift(\AppFake.nested.value)
    var state = AppFake()
    // when
    reducer.reduce(&state, StoreCounterAction.increment)
    // then
    XCTAssertEqual(state.nested.value, 1)
  }

  func test_reducer_liftOptionalRunsOnlyWhenPresent() {
    // given
    let reducer = Reducer<Int> { count, _ in count += 1 }.lift(\AppFake.optional)
    var state = AppFake()
    // when
    reducer.reduce(&state, StoreCounterAction.increment)
    let whileNil = state.optional
    state.optional = 10
    reducer.reduce(&state, StoreCounterAction.increment)
    // then
    XCTAssertNil(whileNil)
    XCTAssertEqual(state.optional, 11)
  }

  func test_reducer_liftMutatesChildInPlaceWithoutCopyingIt() {
    // given: a child array uniquely referenced by the state
    let reducer = Reducer<[Int]> { array, _ in array.append(array.count) }.lift(\Holder.items)
    var state = Holder(items: Array(repeating: 0, count: 1_000))
    state.items.reserveCapacity(2_000)
    let before = unsafe state.items.withUnsafeBufferPointer { $0.baseAddress }
    // when
    reducer.reduce(&state, StoreCounterAction.increment)
    // then
    let after = unsafe state.items.withUnsafeBufferPointer { $0.baseAddress }
    unsafe XCTAssertEqual(
      before, after, "Lifting must mutate the child in place (no copy-on-write).")
    XCTAssertEqual(state.items.count, 1_001)
  }

  /// The form a ReSwift-order closure binds to (scripts/check-traps.sh shows its warning):
  /// a closure whose value is dropped on purpose still mutates the state.
  @available(*, deprecated)
  func test_reducer_closureWithAValueStillMutatesInPlace() {
    // given
    let reducer = Reducer<Set<Int>> { set, _ in set.insert(1) }
    let typed = Reducer<Set<Int>>.on(StoreCounterAction.self) { set, _ in set.insert(2) }
    var state: Set<Int> = []
    // when
    reducer.reduce(&state, StoreLogAction(text: "a"))
    typed.reduce(&state, StoreCounterAction.increment)
    typed.reduce(&state, StoreLogAction(text: "not handled"))
    // then
    XCTAssertEqual(state, [1, 2])
  }
}

private struct AppFake: Equatable {
  struct Nested: Equatable { var value = 0 }
  var first = 0
  var second = 0
  var name = ""
  var optional: Int?
  var nested = Nested()

  init(first: Int = 0, second: Int = 0, name: String = "", optional: Int? = nil) {
    self.first = first
    self.second = second
    self.name = name
    self.optional = optional
  }
}

private struct TypedAction<Tag>: Action {}

private class BaseAction: Action {
  var name: String { "base" }
}

private final class DerivedAction: BaseAction {
  override var name: String { "derived" }
}

private struct Holder {
  var items: [Int]
}
