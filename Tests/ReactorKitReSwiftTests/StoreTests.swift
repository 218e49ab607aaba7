import ReactorKit
import ReactorKitReSwift
import ReactorKitTesting
import XCTest

/// Creating, subclassing and freeing a store, and the native store it runs on (ReSwift's
/// StoreTests, plus the bridge to ReactorKit).
final class StoreTests: XCTestCase {
  func test_init_withoutState_reducesReSwiftInitFirst() {
    // given
    var seen: [String] = []
    let reducer: ReactorKitReSwift.Reducer<CounterState> = { action, state in
      seen.append("\(type(of: action)) \(state == nil ? "nil" : "state")")
      return counterReducer(action: action, state: state)
    }

    // when
    let store = ReactorKitReSwift.Store(reducer: reducer, state: nil)

    // then
    XCTAssertEqual(seen, ["ReSwiftInit nil"])
    XCTAssertEqual(store.state, CounterState())
  }

  func test_init_withState_doesNotCallTheReducer() {
    // given
    var calls = 0
    let reducer: ReactorKitReSwift.Reducer<CounterState> = { action, state in
      calls += 1
      return counterReducer(action: action, state: state)
    }

    // when
    let store = ReactorKitReSwift.Store(reducer: reducer, state: CounterState(value: 4))

    // then
    XCTAssertEqual(calls, 0)
    XCTAssertEqual(store.state.value, 4)
  }

  func test_subclass_withTheRequiredInitialiser_isUsedThroughTheBaseType() {
    // given
    let probe = DeinitProbe()

    // when
    var store: ReactorKitReSwift.Store<CounterState>? = ProbedStore(
      reducer: counterReducer, state: nil, middleware: [], automaticallySkipsRepeats: true)
    (store as? ProbedStore)?.probe = probe
    store?.dispatch(SetValue(2))
    let value = store?.state.value
    store = nil

    // then
    XCTAssertEqual(value, 2)
    XCTAssertTrue(probe.isFreed)
  }

  func test_deinit_withASubscriber_freesTheStoreAndItsNativeStore() {
    // given
    let probe = DeinitProbe()
    let subscriber = Recorder<CounterState>()
    weak var native: ReactorKit.Store<CounterState>?

    // when
    do {
      let store = ProbedStore(reducer: counterReducer, state: CounterState())
      store.probe = probe
      native = store.reactorKitStore
      store.subscribe(subscriber)
      store.dispatch(SetValue(1))
    }

    // then
    XCTAssertTrue(probe.isFreed)
    XCTAssertNil(native)
    XCTAssertEqual(subscriber.count, 2)
  }

  func test_deinit_whileTheNativeStoreLivesOn_endsTheFacadeSubscriptions() {
    // given
    let subscriber = Recorder<CounterState>()
    var store: ReactorKitReSwift.Store<CounterState>? = .init(
      reducer: counterReducer, state: CounterState())
    let native = store!.reactorKitStore
    store?.subscribe(subscriber)

    // when
    store = nil
    native.dispatch(SetValue(9))

    // then
    XCTAssertEqual(subscriber.count, 1)
    XCTAssertEqual(native.currentState.value, 9)
  }

  func test_reactorKitStore_sharesStateAndActionsWithTheFacade() {
    // given
    let store = ReactorKitReSwift.Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<Int?>()
    store.subscribe(subscriber) { $0.select(\.value) }
    var nativeActions: [String] = []
    let bag = DisposeBag()
    store.reactorKitStore.actions
      .subscribe(onNext: { nativeActions.append("\(type(of: $0))") })
      .disposed(by: bag)

    // when: one action through each side
    store.dispatch(SetValue(1))
    store.reactorKitStore.dispatch(SetValue(2))

    // then
    XCTAssertEqual(subscriber.received, [nil, 1, 2])
    XCTAssertEqual(nativeActions, ["SetValue", "SetValue"])
    XCTAssertEqual(store.state.value, 2)
  }

  func test_reactorKitStore_worksWithTestStoreAndSlices() {
    // given
    let store = ReactorKitReSwift.Store(reducer: counterReducer, state: CounterState())
    let testStore = TestStore(store: store.reactorKitStore)
    var labels: [String] = []
    let subscription = store.reactorKitStore.slice(\.label).subscribe(onNext: { labels.append($0) })

    // when / then
    testStore.send(SetLabel("next")) { $0.label = "next" }
    testStore.send(SetValue(3)) { $0.value = 3 }
    testStore.finish()
    subscription.dispose()
    XCTAssertEqual(labels, ["initial", "next"])
  }

  func test_actionType_isReactorKitsAction() {
    // given
    let action: ReactorKitReSwift.Action = SetValue(1)

    // when
    let native: any ReactorKit.Action = action

    // then
    XCTAssertTrue(native is SetValue)
  }
}

/// A subclass as ReSwift's own tests write them: the required initialiser is inherited.
private final class ProbedStore: ReactorKitReSwift.Store<CounterState>, @unchecked Sendable {
  // Safety: set once by the test before use.
  var probe: DeinitProbe?
  deinit { probe?.isFreed = true }
}
