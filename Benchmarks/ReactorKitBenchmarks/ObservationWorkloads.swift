import ReactorKit

/// `observed_store_dispatch`: a counter store shown by an `ObservedStore` whose `count` is
/// tracked; one op is one dispatch on the main thread followed by a read of `model.count`, as a
/// view would. Baseline: a struct reduced under a pthread mutex, then its field compared with
/// the value shown and stored. The checksum is the sum of the counts read.
func observedStoreDispatch() -> Workload {
  Workload(
    name: "observed_store_dispatch",
    subject: Measured {
      let store = Store(reducer: counterReducer(), state: Counter())
      let model = MainActor.assumeIsolated { ObservedStore(store) }
      return { count in
        MainActor.assumeIsolated {
          var total = 0
          for _ in 0..<count {
            store.dispatch(CounterAction.increment)
            total &+= model.count
          }
          return total
        }
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      var state = Counter()
      var shown = Counter()
      return { count in
        var total = 0
        for _ in 0..<count {
          lock.lock()
          state.count &+= 1
          let published = state
          lock.unlock()
          if published.count != shown.count { shown = published }
          total &+= shown.count
        }
        return total
      }
    })
}
