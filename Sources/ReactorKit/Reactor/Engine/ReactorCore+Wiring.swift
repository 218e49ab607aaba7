import ReactorKitStreams

// Building the pipeline from the reactor's transforms, once.

/// The values of ``ReactorCore/wiring``.
@usableFromInline
enum Wiring {
  @usableFromInline static var idle: UInt8 { 0 }
  @usableFromInline static var inProgress: UInt8 { 1 }
  @usableFromInline static var done: UInt8 { 2 }
}

extension ReactorCore {
  /// Builds the pipeline with `wire` unless it is built or being built.
  ///
  /// The first caller wires, outside any lock (`wire` runs the reactor's transforms). Callers
  /// on other threads, and reentrant calls from the transforms, return at once: ``action`` and
  /// ``state`` work before wiring is done, and actions sent meanwhile are queued until it is.
  @inlinable
  func ensureWired(_ wire: (ReactorCore) -> Void) {
    if wiring.load(ordering: .acquiring) == Wiring.done { return }
    guard
      wiring.compareExchange(
        expected: Wiring.idle, desired: Wiring.inProgress, ordering: .acquiringAndReleasing
      ).exchanged
    else { return }
    wire(self)
    wiring.store(Wiring.done, ordering: .releasing)
  }

  /// Builds the pipeline. Called once, by the thread that created the streams, with no lock
  /// held: it runs the reactor's transforms.
  ///
  /// - Parameters:
  ///   - initialState: The reactor's initial state.
  ///   - scheduler: Where the queue is drained.
  ///   - transformAction: The reactor's `transform(action:)`.
  ///   - transformMutation: The reactor's `transform(mutation:)`.
  ///   - transformState: The reactor's `transform(state:)`.
  @inlinable
  func wire(
    initialState: State,
    scheduler: ImmediateSchedulerType,
    transformAction: (Observable<Action>) -> Observable<Action>,
    transformMutation: (Observable<Mutation>) -> Observable<Mutation>,
    transformState: (Observable<State>) -> Observable<State>
  ) {
    // The transforms receive stand-ins for the input subjects, which are created only when a
    // transform is not the identity (or subscribes to its input): most reactors keep the
    // default transforms and never need them. The stand-ins capture only the core (no closure
    // context to allocate), so the state input starts with the current state, the initial
    // one while wiring.
    lock.lock()
    if shared.current == nil { shared.current = initialState }
    lock.unlock()
    let actionInput = Observable<Action>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.actionInput }, set: { $0.actionInput = $1 },
        make: { PublishSubject() }
      ).subscribe(observer)
    }
    let transformedAction = transformAction(actionInput)
    let mutationInput = Observable<Mutation>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.mutationInput }, set: { $0.mutationInput = $1 },
        make: { PublishSubject() }
      ).subscribe(observer)
    }
    let transformedMutation = transformMutation(mutationInput)
    let stateInput = Observable<State>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.stateInput }, set: { $0.stateInput = $1 },
        make: { BehaviorSubject(value: shared.current!) }
      ).subscribe(observer)
    }
    let transformedState = transformState(stateInput)

    let actionIsIdentity = transformedAction === actionInput
    let mutationIsIdentity = transformedMutation === mutationInput
    let stateIsIdentity = transformedState === stateInput

    lock.lock()
    // The core publishes states itself unless `transform(state:)` changes them or somebody
    // subscribed while the transforms ran (to a replay subject, kept then).
    let ownsOutput = stateIsIdentity && shared.replayOutput == nil
    if ownsOutput {
      // The current state is the initial one (stored above).
      shared.ownsOutput = true
      config.ownsOutput = true
    } else {
      config.replayOutput = replayOutputLocked()
    }
    // Hooks installed before the wiring wrap the reactor's own; without any, `compose` (not
    // specialised, and building a key path) would return `hooks` unchanged.
    let installed = shared.rareStorage?.installedHooks ?? []
    config.hooks = installed.isEmpty ? nil : composedHooks(installed.map(\.hook))
    // A metatype comparison (the class is final) instead of a dynamic cast.
    config.usesCurrentThreadScheduler = Self.isTrampoline(scheduler)
    config.otherScheduler =
      config.usesCurrentThreadScheduler ? nil : ConstantBox(scheduler)
    // An identity transform is bypassed: its input subject, if a transform subscribed to it
    // while wiring, is never fed (as before the stand-ins).
    if actionIsIdentity {
      config.actionInput = nil
    } else if config.actionInput == nil {
      config.actionInput = PublishSubject()
    }
    if mutationIsIdentity {
      config.mutationInput = nil
    } else if config.mutationInput == nil {
      config.mutationInput = PublishSubject()
    }
    if stateIsIdentity {
      config.stateInput = nil
    } else if config.stateInput == nil {
      config.stateInput = BehaviorSubject(value: initialState)
    }
    owned.accumulator = initialState
    lock.unlock()

    // States first, so the initial state is published before anything a transformed stream
    // emits while it is being subscribed. A core that publishes states itself starts with it.
    if stateIsIdentity {
      if !ownsOutput { publish(initialState) }
    } else {
      keep(transformedState.subscribe(AnyObserver { [self] in receiveTransformedState($0) }))
    }
    if !mutationIsIdentity {
      keep(
        transformedMutation.subscribe(AnyObserver { [self] in receiveTransformedMutation($0) }))
    }
    if !actionIsIdentity {
      keep(transformedAction.subscribe(AnyObserver { [self] in receiveTransformedAction($0) }))
    }

    lock.lock()
    // Disposed meanwhile: it stays so, and nothing is scheduled.
    _ = shared.lifecycle.wire()
    let schedule = shared.drain.wakeLocked(lifecycle: shared.lifecycle, gate: gate)
    lock.unlock()
    if schedule { scheduleDrain() }
  }

  /// The input subject at `path`, created on first use. Until the streams are wired it is
  /// recorded for the engine to feed; afterwards a stand-in whose transform was the identity is
  /// not fed, and a late subscriber gets a subject that never emits.
  ///
  /// `get` and `set` touch only their field: the owner thread may rewrite `config.hooks`
  /// meanwhile, without the lock.
  @inlinable
  func inputSubject<Subject>(
    get: (Config) -> Subject?,
    set: (inout Config, Subject) -> Void, make: () -> Subject
  ) -> Subject {
    lock.lock()
    defer { lock.unlock() }
    if let subject = get(config) { return subject }
    let subject = make()
    if shared.lifecycle.isUnwired { set(&config, subject) }
    return subject
  }

  /// Whether `scheduler` is the trampoline: the existential is opened, so its type is read
  /// from it (`CurrentThreadScheduler` is final) without looking up the dynamic type.
  @inlinable
  static func isTrampoline<Scheduler: ImmediateSchedulerType>(_ scheduler: Scheduler) -> Bool {
    Scheduler.self == CurrentThreadScheduler.self
  }

  @inlinable
  func keep(_ subscription: Disposable) {
    lock.lock()
    if shared.lifecycle.isDisposed {
      lock.unlock()
      subscription.dispose()
      return
    }
    shared.rare.subscriptions.append(subscription)
    lock.unlock()
  }
}
