import ReactorKitReSwift
import XCTest

/// Selections, filters and the automatic skipping of repeats (ReSwift's StoreSubscriberTests
/// and AutomaticallySkipRepeatsTests).
final class StoreSubscriberTests: XCTestCase {
  func test_select_closure_deliversTheSelectedValueIncludingNil() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<Int?>()
    store.subscribe(subscriber) { $0.select { $0.value } }

    // when
    store.dispatch(SetValue(3))
    let afterThree = subscriber.last
    store.dispatch(SetValue(nil))

    // then
    XCTAssertEqual(afterThree, .some(3))
    XCTAssertEqual(subscriber.last, .some(.none))
  }

  func test_select_keyPath_deliversTheSelectedValueIncludingNil() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<Int?>()
    store.subscribe(subscriber) { $0.select(\.value) }

    // when
    store.dispatch(SetValue(3))
    let afterThree = subscriber.last
    store.dispatch(SetValue(nil))

    // then
    XCTAssertEqual(afterThree, .some(3))
    XCTAssertEqual(subscriber.last, .some(.none))
    XCTAssertEqual(subscriber.received, [nil, 3, nil])
  }

  func test_select_tupleOfSeveralParts_deliversTheLatestCombination() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<(Int?, String)>()
    store.subscribe(subscriber) { $0.select { ($0.value, $0.label) } }

    // when
    store.dispatch(SetValue(5))
    store.dispatch(SetLabel("done"))

    // then
    XCTAssertEqual(subscriber.last?.0, 5)
    XCTAssertEqual(subscriber.last?.1, "done")
    XCTAssertEqual(subscriber.count, 3)  // tuples are not Equatable: nothing is skipped
  }

  func test_skipRepeats_withComparison_skipsAnEqualSelection() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState(value: 3))
    let closure = Recorder<Int?>()
    let keyPath = Recorder<Int?>()
    store.subscribe(closure) { $0.select { $0.value }.skipRepeats { $0 == $1 } }
    store.subscribe(keyPath) { $0.select(\.value).skipRepeats { $0 == $1 } }

    // when
    store.dispatch(SetValue(3))

    // then
    XCTAssertEqual(closure.received, [3])
    XCTAssertEqual(keyPath.received, [3])
  }

  func test_skipRepeats_equatableDefault_skipsAnEqualSelection() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let closure = Recorder<String>()
    let keyPath = Recorder<String>()
    store.subscribe(closure) { $0.select { $0.label }.skipRepeats() }
    store.subscribe(keyPath) { $0.select(\.label).skipRepeats() }

    // when
    store.dispatch(SetLabel("initial"))
    store.dispatch(SetLabel("next"))

    // then
    XCTAssertEqual(closure.received, ["initial", "next"])
    XCTAssertEqual(keyPath.received, ["initial", "next"])
  }

  func test_skipRepeats_customRuleOnANonEquatablePart_skipsWhatTheRuleCallsARepeat() {
    // given
    let store = Store(reducer: boxedReducer, state: BoxedState(box: .init(value: 5)))
    let closure = Recorder<BoxedState.Box>()
    let keyPath = Recorder<BoxedState.Box>()
    store.subscribe(closure) { $0.select { $0.box }.skipRepeats { $0.value == $1.value } }
    store.subscribe(keyPath) { $0.select(\.box).skipRepeats { $0.value == $1.value } }

    // when
    store.dispatch(SetBox(value: 5))
    store.dispatch(SetBox(value: 6))

    // then
    XCTAssertEqual(closure.received.map(\.value), [5, 6])
    XCTAssertEqual(keyPath.received.map(\.value), [5, 6])
  }

  func test_select_nonEquatablePart_passesEveryState() {
    // given
    let store = Store(reducer: opaqueReducer, state: OpaqueState())
    let closure = Recorder<Opaque>()
    let keyPath = Recorder<Opaque>()
    store.subscribe(closure) { $0.select { $0.opaque } }
    store.subscribe(keyPath) { $0.select(\.opaque) }

    // when
    store.dispatch(SetOpaque(opaque: Opaque()))

    // then
    XCTAssertEqual(closure.count, 2)
    XCTAssertEqual(keyPath.count, 2)
    XCTAssertEqual(closure.last?.text, "initial")
  }

  func test_select_equatablePartOfANonEquatableState_skipsRepeatsAutomatically() {
    // given
    let store = Store(reducer: opaqueReducer, state: OpaqueState())
    let closure = Recorder<String>()
    let keyPath = Recorder<String>()
    store.subscribe(closure) { $0.select { $0.opaque.text } }
    store.subscribe(keyPath) { $0.select(\.opaque.text) }

    // when
    store.dispatch(SetText(text: "unrelated"))

    // then
    XCTAssertEqual(closure.received, ["initial"])
    XCTAssertEqual(keyPath.received, ["initial"])
  }

  func test_automaticallySkipsRepeatsFalse_passesEqualSelectionsAndStates() {
    // given
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [],
      automaticallySkipsRepeats: false)
    let closure = Recorder<String>()
    let keyPath = Recorder<String>()
    let whole = Recorder<CounterState>()
    store.subscribe(closure) { $0.select { $0.label } }
    store.subscribe(keyPath) { $0.select(\.label) }
    store.subscribe(whole)

    // when
    store.dispatch(SetLabel("initial"))

    // then
    XCTAssertEqual(closure.count, 2)
    XCTAssertEqual(keyPath.count, 2)
    XCTAssertEqual(whole.count, 2)
  }

  func test_subscribe_equatableState_skipsEqualStatesByDefault() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [])
    let subscriber = Recorder<CounterState>()
    store.subscribe(subscriber)

    // when
    store.dispatch(SetLabel("initial"))
    store.dispatch(SetLabel("next"))

    // then
    XCTAssertEqual(subscriber.received.map(\.label), ["initial", "next"])
  }

  func test_subscribe_nonEquatableState_receivesEveryState() {
    // given
    let store = Store(reducer: opaqueReducer, state: OpaqueState())
    let subscriber = Recorder<OpaqueState>()
    store.subscribe(subscriber)

    // when
    store.dispatch(Noop())
    store.dispatch(Noop())

    // then
    XCTAssertEqual(subscriber.count, 3)
  }

  func test_skipWhen_skipsWhenTheRuleHolds() {
    // given
    let store = Store(reducer: boxedReducer, state: BoxedState(box: .init(value: 5)))
    let closure = Recorder<BoxedState.Box>()
    let keyPath = Recorder<BoxedState.Box>()
    store.subscribe(closure) { $0.select { $0.box }.skip { $0.value == $1.value } }
    store.subscribe(keyPath) { $0.select(\.box).skip(when: { $0.value == $1.value }) }

    // when
    store.dispatch(SetBox(value: 5))
    store.dispatch(SetBox(value: 7))

    // then
    XCTAssertEqual(closure.received.map(\.value), [5, 7])
    XCTAssertEqual(keyPath.received.map(\.value), [5, 7])
  }

  func test_onlyWhen_passesOnlyWhenTheRuleHolds() {
    // given
    let store = Store(reducer: boxedReducer, state: BoxedState(box: .init(value: 5)))
    let closure = Recorder<BoxedState.Box>()
    let keyPath = Recorder<BoxedState.Box>()
    store.subscribe(closure) { $0.select { $0.box }.only { $0.value != $1.value } }
    store.subscribe(keyPath) { $0.select(\.box).only(when: { $0.value < $1.value }) }

    // when
    store.dispatch(SetBox(value: 5))
    store.dispatch(SetBox(value: 9))
    store.dispatch(SetBox(value: 2))

    // then
    XCTAssertEqual(closure.received.map(\.value), [5, 9, 2])
    XCTAssertEqual(keyPath.received.map(\.value), [5, 9])  // 9 -> 2 is not an increase
  }

  func test_filtersBeforeSelect_compareWholeStates() {
    // given: no automatic skipping, which would compare the label with the previous *state*'s
    let store = Store(
      reducer: counterReducer, state: CounterState(), automaticallySkipsRepeats: false)
    let subscriber = Recorder<String>()
    store.subscribe(subscriber) {
      $0.skip(when: { $0.value == $1.value }).select(\.label)
    }

    // when
    store.dispatch(SetLabel("ignored: value unchanged"))
    store.dispatch(SetValue(1))

    // then
    XCTAssertEqual(subscriber.received, ["initial", "ignored: value unchanged"])
  }

  func test_automaticSkip_comparesWithThePreviousStateNotTheLastDelivered() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<String>()
    store.subscribe(subscriber) {
      $0.skip(when: { $0.value == $1.value }).select(\.label)
    }

    // when: the label changes while the filter skips, then the value changes alone
    store.dispatch(SetLabel("changed"))
    store.dispatch(SetValue(1))

    // then: ReSwift compares the label with the previous state's, which was already "changed"
    XCTAssertEqual(subscriber.received, ["initial"])
  }

  func test_subscriptionInitWithSink_feedsThePipeline() {
    // given
    var feed: ((Int?, Int) -> Void)?
    let subscription = Subscription<Int> { feed = $0 }
    var seen: [Int] = []
    subscription.skipRepeats().observer = { _, new in seen.append(new) }

    // when
    feed?(nil, 1)
    feed?(1, 1)
    feed?(1, 2)

    // then
    XCTAssertEqual(seen, [1, 2])
  }
}

/// ReSwift's AutomaticallySkipRepeatsTests: a store created without a state, subscribed by the
/// test case itself.
final class AutomaticallySkipRepeatsTests: XCTestCase, StoreSubscriber {
  private var store: Store<NamedState>!
  private var updates = 0

  override func setUp() {
    super.setUp()
    store = Store(reducer: namedReducer, state: nil)
    updates = 0
  }

  override func tearDown() {
    store = nil
    super.tearDown()
  }

  func newState(state: String) {
    updates += 1
  }

  func test_subscribe_deliversTheInitialSelectionOnce() {
    store.subscribe(self) { $0.select { $0.name } }
    XCTAssertEqual(updates, 1)
  }

  func test_unrelatedAction_explicitSkipRepeats_deliversNothing() {
    store.subscribe(self) { $0.select { $0.name }.skipRepeats() }
    store.dispatch(SetAge(age: 30))
    XCTAssertEqual(updates, 1)
  }

  func test_unrelatedAction_withoutExplicitSkipRepeats_deliversNothing() {
    store.subscribe(self) { $0.select { $0.name } }
    store.dispatch(SetAge(age: 30))
    XCTAssertEqual(updates, 1)
    XCTAssertEqual(store.state.age, 30)
  }
}
