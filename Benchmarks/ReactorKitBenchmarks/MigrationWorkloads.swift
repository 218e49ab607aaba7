import ReactorKit
import ReactorKitReSwift
import ReactorKitReactiveReSwift

// The migration facades (issue 24) against the native store they run on. Both sides run the
// same ReSwift-style reducer (optional state, action cast) and `subscribers` subscribers that
// add up the count; one op is one dispatch. Target: the facade within 2× of the native store.

/// The ReSwift-style counter reducer both sides run.
func reSwiftCounterReducer(action: any ReactorKit.Action, state: Counter?) -> Counter {
  var state = state ?? Counter()
  if case CounterAction.increment? = action as? CounterAction { state.count &+= 1 }
  return state
}

/// The native store with `subscribers` `state` subscribers and the same reducer: the baseline.
private func nativeCounterStore(subscribers: Int) -> Measured {
  Measured {
    let store = ReactorKit.Store(
      reducer: ReactorKit.Reducer.pure { state, action in
        reSwiftCounterReducer(action: action, state: state)
      },
      state: Counter())
    let total = Tally()
    let bag = DisposeBag()
    for _ in 0..<subscribers {
      store.state.subscribe(onNext: { total.add($0.count) }).disposed(by: bag)
    }
    return { count in
      let start = total.value
      for _ in 0..<count { store.dispatch(CounterAction.increment) }
      withExtendedLifetime(bag) {}
      return total.value &- start
    }
  }
}

/// A native subscriber object, held weakly by its subscription like a ReSwift subscriber.
private final class NativeCountingSubscriber {
  let total: Tally
  init(total: Tally) { self.total = total }
  func newState(_ state: Counter) { total.add(state.count) }
}

/// The native store with the same reducer and `subscribers` subscriber objects, each held
/// weakly (`subscribe(with:)`) and skipping repeated states (`distinctUntilChanged`): what a
/// ReSwift subscriber of an `Equatable` state does, written natively. The ReSwift facade's
/// baseline.
private func nativeSubscriberObjectsStore(subscribers: Int) -> Measured {
  Measured {
    let store = ReactorKit.Store(
      reducer: ReactorKit.Reducer.pure { state, action in
        reSwiftCounterReducer(action: action, state: state)
      },
      state: Counter())
    let total = Tally()
    let objects = (0..<subscribers).map { _ in NativeCountingSubscriber(total: total) }
    let bag = DisposeBag()
    for object in objects {
      store.state.distinctUntilChanged()
        .subscribe(with: object, onNext: { object, state in object.newState(state) })
        .disposed(by: bag)
    }
    return { count in
      let start = total.value
      for _ in 0..<count { store.dispatch(CounterAction.increment) }
      withExtendedLifetime((bag, objects)) {}
      return total.value &- start
    }
  }
}

/// A ReSwift subscriber of the whole state.
private final class CountingSubscriber: ReactorKitReSwift.StoreSubscriber {
  let total: Tally
  init(total: Tally) { self.total = total }
  func newState(state: Counter) { total.add(state.count) }
}

/// `facade_reswift_dispatch_<N>sub(s)`: a `ReactorKitReSwift.Store` with `subscribers`
/// subscribers of the whole (`Equatable`) state, which skip repeats as ReSwift's do by default;
/// against the same subscribers written natively (``nativeSubscriberObjectsStore``).
func reSwiftFacadeDispatch(subscribers: Int) -> Workload {
  Workload(
    name: subscribers == 1
      ? "facade_reswift_dispatch_1sub" : "facade_reswift_dispatch_\(subscribers)subs",
    subject: Measured {
      let store = ReactorKitReSwift.Store<Counter>(reducer: reSwiftCounterReducer, state: Counter())
      let total = Tally()
      let subscribers = (0..<subscribers).map { _ in CountingSubscriber(total: total) }
      for subscriber in subscribers { store.subscribe(subscriber) }
      return { count in
        let start = total.value
        for _ in 0..<count { store.dispatch(CounterAction.increment) }
        withExtendedLifetime(subscribers) {}
        return total.value &- start
      }
    },
    baseline: nativeSubscriberObjectsStore(subscribers: subscribers),
    validationCount: subscribers == 1 ? 10_000 : 300,
    targets: [.ratio(2)])
}

/// `facade_reactivereswift_dispatch_<N>sub(s)`: a `ReactorKitReactiveReSwift.Store` over an
/// `ObservableProperty` with `subscribers` subscribers.
func reactiveReSwiftFacadeDispatch(subscribers: Int) -> Workload {
  Workload(
    name: subscribers == 1
      ? "facade_reactivereswift_dispatch_1sub"
      : "facade_reactivereswift_dispatch_\(subscribers)subs",
    subject: Measured {
      let store = ReactorKitReactiveReSwift.Store(
        reducer: { action, state in reSwiftCounterReducer(action: action, state: state) },
        observable: ObservableProperty(Counter()))
      let total = Tally()
      let bag = SubscriptionReferenceBag()
      for _ in 0..<subscribers {
        bag += store.observable.subscribe { total.add($0.count) }
      }
      return { count in
        let start = total.value
        for _ in 0..<count { store.dispatch(CounterAction.increment) }
        withExtendedLifetime(bag) {}
        return total.value &- start
      }
    },
    baseline: nativeCounterStore(subscribers: subscribers),
    validationCount: subscribers == 1 ? 10_000 : 300,
    targets: [.ratio(2)])
}
