import ReactorKitStreams

// Everything ReactorKit keeps for one reactor (the engine, the action subject, the state
// stream, the stub and the stub flag) is the engine itself, `ReactorCore`: one object per
// reactor, kept in `StorageTables.reactors` until the reactor is gone, and with it the objects
// handed out as `Reactor.action` and `Reactor.state`, which are therefore the same objects for
// the reactor's whole life. They are created on first use; they refer to the engine, which
// releases them when the reactor is gone (`ReactorCore.ownerDidDeinitialize()`).

extension ReactorCore {
  /// The engine of `reactor`, created on first use.
  @inlinable
  static func of<R: Reactor>(_ reactor: R) -> ReactorCore
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    core(from: StorageTables.reactors.value(for: reactor) { ReactorCore(for: R.self) })
  }

  // MARK: - Streams

  /// The reactor's action subject. It holds the engine until the reactor is gone.
  @inlinable
  var action: ActionSubject<Action> {
    OnceReference<ActionSubject<Action>>(Slots.action, of: self).getOrMake {
      ActionSubject { [self] in receive($0) }
    }
  }

  /// The reactor's state stream: the engine's output, behind an observable that cannot be
  /// cast back to a subject.
  @inlinable
  var state: Observable<State> {
    OnceReference<Observable<State>>(Slots.state, of: self).getOrMake {
      Observable<State> { [self] observer in subscribeOutput(observer) }
    }
  }

  // MARK: - Stub

  /// Whether the stub replaces the real action and state streams.
  @inlinable
  var isStubEnabled: Bool {
    get { stubFlag.load(ordering: .acquiring) }
    set { stubFlag.store(newValue, ordering: .releasing) }
  }

  /// The stub's shared parts, created on first use with `initialState`.
  @usableFromInline
  func stubRecorder(initialState: () -> State) -> StubRecorder<Action, State> {
    // `initialState` is the reactor's code: it runs outside any lock; if two threads create a
    // recorder at once, the first one stored wins.
    OnceReference<StubRecorder<Action, State>>(Slots.stubRecorder, of: self).getOrMake {
      StubRecorder<Action, State>(initialState: initialState())
    }
  }

  /// The `Stub` object for `reactor`; the same instance on every access through the same
  /// static type.
  @usableFromInline
  func stub<R: Reactor>(for reactor: R) -> Stub<R>
  where R.Action == Action, R.State == State {
    let recorder = stubRecorder(initialState: { reactor.initialState })
    // The first stub stored wins; one made through another static type is not stored.
    let stored = stubObjectReference.getOrMake { Stub(reactor: reactor, recorder: recorder) }
    return stored as? Stub<R> ?? Stub(reactor: reactor, recorder: recorder)
  }
}
