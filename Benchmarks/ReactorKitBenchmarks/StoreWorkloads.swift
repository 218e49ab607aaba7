import ReactorKit

/// `store_dispatch_1sub`: a counter store with one `state` subscriber; one op is one dispatch.
/// Baseline: a struct reduced under a pthread mutex, then one subscriber closure called.
func storeDispatchOneSubscriber() -> Workload {
  Workload(
    name: "store_dispatch_1sub",
    subject: Measured {
      let store = Store(reducer: counterReducer(), state: Counter())
      var total = 0
      let subscription = store.state.subscribe(onNext: { total &+= $0.count })
      return { count in
        let start = total
        for _ in 0..<count { store.dispatch(CounterAction.increment) }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: lockedCounterBaseline(),
    targets: [.ratio(4)])
}

/// `store_dispatch_<N>subs_slices`: a state of 100 `Int` fields with `perField` `slice`
/// subscribers per field; one op is one dispatch that changes one field. Baseline: the same
/// reduction under a pthread mutex, then a loop over every subscriber's closure, each reading
/// its field and comparing it with the last value it saw. The checksum is the sum of the values
/// subscribers were told about.
func storeDispatchSlices(perField: Int, targets: [Target]) -> Workload {
  Workload(
    name: "store_dispatch_\(perField * 100)subs_slices",
    subject: Measured {
      let store = Store(reducer: hundredFieldsReducer(), state: HundredFields())
      let total = Tally()
      let bag = DisposeBag()
      for path in HundredFields.paths {
        for _ in 0..<perField {
          store.slice(path).subscribe(onNext: { total.add($0) }).disposed(by: bag)
        }
      }
      return { count in
        let start = total.value
        for index in 0..<count { store.dispatch(IncrementField(field: index % 100)) }
        withExtendedLifetime(bag) {}
        return total.value &- start
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      let offsets = HundredFields.offsets
      let state = UnsafeMutablePointer<HundredFields>.allocate(capacity: 1)
      unsafe state.initialize(to: HundredFields())
      let total = Tally()
      // Each subscriber's last value lives in plain memory: no exclusivity checks.
      let lasts = UnsafeMutablePointer<Int>.allocate(capacity: offsets.count * perField)
      unsafe lasts.initialize(repeating: 0, count: offsets.count * perField)
      var subscribers: [(UnsafePointer<HundredFields>) -> Void] = unsafe []
      for (field, offset) in offsets.enumerated() {
        for copy in 0..<perField {
          let last = unsafe lasts + (field * perField + copy)
          unsafe subscribers.append { state in
            let value = unsafe readField(state, offset: offset)
            if unsafe value != last.pointee {
              unsafe last.pointee = value
              total.add(value)
            }
          }
        }
      }
      return { count in
        let start = total.value
        for index in 0..<count {
          lock.lock()
          unsafe incrementField(&state.pointee, offset: offsets[index % 100])
          lock.unlock()
          for index in unsafe subscribers.indices { unsafe subscribers[index](state) }
        }
        return total.value &- start
      }
    },
    validationCount: 300,
    targets: targets)
}

/// State reduced by several threads under one pthread mutex (the contended baseline).
@safe
private final class SharedCounter: @unchecked Sendable {
  // Safety: `state` is only touched with `lock` held.
  let lock = BaselineLock()
  let state = UnsafeMutablePointer<Counter>.allocate(capacity: 1)

  init() { unsafe state.initialize(to: Counter()) }

  deinit {
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }
}

/// `store_dispatch_contended`: two threads dispatching to one counter store at the same time;
/// one op is one dispatch (by either thread). Baseline: two threads reducing under one pthread
/// mutex.
func storeDispatchContended() -> Workload {
  Workload(
    name: "store_dispatch_contended",
    subject: Measured {
      let store = Store(reducer: counterReducer(), state: Counter())
      return { count in
        let start = store.currentState.count
        runOnThreads(2, count: count) { _, share in
          for _ in 0..<share { store.dispatch(CounterAction.increment) }
        }
        return store.currentState.count &- start
      }
    },
    baseline: Measured {
      let shared = SharedCounter()
      return { count in
        let start = unsafe shared.state.pointee.count
        runOnThreads(2, count: count) { _, share in
          for _ in 0..<share {
            shared.lock.lock()
            unsafe shared.state.pointee.count &+= 1
            shared.lock.unlock()
          }
        }
        return unsafe shared.state.pointee.count &- start
      }
    },
    validationCount: 100_000)
}
