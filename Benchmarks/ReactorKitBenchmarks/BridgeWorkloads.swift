import ReactorKit

/// A reactor that mirrors one field of a store's state by merging the field's slice into its
/// mutations.
final class FieldReactor: Reactor {
  enum Action {}
  enum Mutation { case setValue(Int) }
  struct State { var value = 0 }

  let initialState = State()
  private let store: Store<HundredFields>
  private let path: KeyPath<HundredFields, Int>

  init(store: Store<HundredFields>, path: KeyPath<HundredFields, Int>) {
    self.store = store
    self.path = path
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    .merge(mutation, store.slice(path).map(Mutation.setValue))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setValue(let value): state.value = value
    }
    return state
  }
}

/// `bridge_slice_to_reactor`: 100 reactors, each consuming one field's slice of a store and
/// with one state subscriber; one op is one dispatch that changes one field (so one reactor
/// reduces and notifies). Baseline: the dispatch under a pthread mutex, 100 closures comparing
/// their field with the last value, and for the changed one a reduction under the reactor's
/// own mutex and one subscriber call.
func bridgeSliceToReactor() -> Workload {
  Workload(
    name: "bridge_slice_to_reactor",
    subject: Measured {
      let store = Store(reducer: hundredFieldsReducer(), state: HundredFields())
      let total = Tally()
      let bag = DisposeBag()
      let reactors = HundredFields.paths.map { FieldReactor(store: store, path: $0) }
      for reactor in reactors {
        reactor.state.subscribe(onNext: { total.add($0.value) }).disposed(by: bag)
      }
      return { count in
        let start = total.value
        for index in 0..<count { store.dispatch(IncrementField(field: index % 100)) }
        withExtendedLifetime((reactors, bag)) {}
        return total.value &- start
      }
    },
    baseline: Measured {
      @safe
      struct ReactorFloor {
        let lock = BaselineLock()
        let state = UnsafeMutablePointer<FieldReactor.State>.allocate(capacity: 1)
        let subscriber: (FieldReactor.State) -> Void
      }
      let lock = BaselineLock()
      let offsets = HundredFields.offsets
      let state = UnsafeMutablePointer<HundredFields>.allocate(capacity: 1)
      unsafe state.initialize(to: HundredFields())
      let total = Tally()
      let lasts = UnsafeMutablePointer<Int>.allocate(capacity: offsets.count)
      unsafe lasts.initialize(repeating: 0, count: offsets.count)
      var slices: [(UnsafePointer<HundredFields>) -> Void] = unsafe []
      for (field, offset) in offsets.enumerated() {
        let reactor = ReactorFloor(subscriber: { total.add($0.value) })
        unsafe reactor.state.initialize(to: FieldReactor.State())
        let last = unsafe lasts + field
        unsafe slices.append { state in
          let value = unsafe readField(state, offset: offset)
          guard unsafe value != last.pointee else { return }
          unsafe last.pointee = value
          reactor.lock.lock()
          unsafe reactor.state.pointee.value = value
          let published = unsafe reactor.state.pointee
          reactor.lock.unlock()
          reactor.subscriber(published)
        }
      }
      return { count in
        let start = total.value
        for index in 0..<count {
          lock.lock()
          unsafe incrementField(&state.pointee, offset: offsets[index % 100])
          lock.unlock()
          for index in unsafe slices.indices { unsafe slices[index](state) }
        }
        return total.value &- start
      }
    })
}
