import ReactorKitStreams

/// The engine of one reactor: a serial queue of actions and mutations, drained on the
/// reactor's scheduler, feeding `mutate` → `reduce` and publishing each state.
///
/// ## Pipeline
///
/// `transform(action:)` → `mutate(action:)` → `transform(mutation:)` → `reduce` →
/// `transform(state:)` → output. A transform that returns its input unchanged (the default)
/// costs nothing: the core then calls the next stage directly instead of going through a
/// subject. A `mutate` result whose elements are known up front (`just`, `empty`, `of`/`from`
/// on the trampoline) is consumed without a subscription. With an identity
/// `transform(state:)` the core is the output too: it registers the state stream's
/// subscribers itself (``OutputObserver``) and the owner delivers each state to them, so a
/// reactor needs no subject for its states (see ``subscribeOutput(_:)``).
///
/// ## Serialisation and reentrancy
///
/// Everything that reaches the reactor is queued under ``lock`` and processed by one thread at
/// a time, the *owner*, which drains the queue on the reactor's scheduler. Who owns the core is
/// decided by ``gate``, so an action sent to an idle reactor is processed, and the reactor
/// released, without taking the lock. While the owner
/// runs `mutate` (or the action transform), mutations that the returned sequence emits
/// synchronously are reduced at once, so `currentState` is up to date for the next one. Work
/// that arrives while the owner is reducing or delivering a state (an action sent from
/// `reduce` or from a state subscriber) or from another thread is queued and runs after the
/// current step: never recursively, never concurrently. Mutations are queued ahead of
/// actions, so an action never overtakes a mutation that was already produced.
///
/// ## Which word decides what
///
/// - ``Shared/lifecycle`` (under ``lock``, a ``ReactorLifecycle``): unwired, wired or
///   disposed, and which streams have ended. The one record of where the core is in its life.
/// - ``Shared/drain`` (under ``lock``, a ``ReactorDrainMachine``): what is queued, and the
///   rules that decide, with the lifecycle and the gate, whether a submission is dropped, run
///   inline or queued, and whether its submitter must schedule a drain.
/// - ``gate``: *whether* a drain holds the core (idle, busy, busy with work announced; closed
///   until wired and once disposed). ``owner``: *which thread* that drain runs on.
/// - ``wiring``: a lock-free latch that lets exactly one caller run the transforms; the
///   lifecycle becomes wired at the end of that run.
/// - ``Owned/isDelivering`` (owner thread only): the owner is inside a state delivery, so
///   work it sends itself is queued instead of run inline.
///
/// ## The path of one action
///
/// All in ReactorCore+Path.swift, top to bottom: `reactor.action.onNext` (ActionSubject.swift)
/// → ``receive(_:)``: an idle core on the trampoline is claimed and drained at once, otherwise
/// the action is queued (``ReactorDrainMachine``) and a drain scheduled →
/// ``drain(startingWith:)`` → ``process(_:)`` → ``run(_:)``: `mutate`, whose synchronous
/// results are consumed in place → ``emit(_:)`` → ``apply(_:)``: `reduce` → ``publish(_:)``:
/// `currentState`, then ``deliverToObservers(_:_:_:)``, the state stream's subscribers. Every
/// step returns to that file: the calls it makes elsewhere (``gate``, ``lock``, the trampoline's
/// `enterIdleTrampoline`/`leave`, the drain machine, the field views of
/// ReactorCore+Storage.swift) do one thing and come back.
///
/// ## Performance
///
/// The per-action path is `@inlinable`, so it is specialised for the reactor's types in the
/// module that defines the reactor, and mutable state lives behind pointers, so it pays no
/// dynamic exclusivity checks. The pointers, and every other unsafe construct of the engine,
/// stay in its storage files: ReactorCore+Storage.swift, which lays out ``Body`` and exports
/// safe accessors (``shared``, ``config``, ``owned``, ``lock``, ``gate``) and borrowing
/// helpers, and OwnedStorage.swift, whose `OwnedStorage` keeps the reactor's owner and key
/// (`ownerObject`); the other files use only those.
///
/// ## Lifetime
///
/// The core does not keep its reactor alive (``OwnedStorage/storageOwner``). ``dispose()``
/// (called once the reactor is gone) stops the queue, disposes every subscription it holds and lets
/// go of the state stream's subscribers (``OutputObserver``: the observer, which only the core
/// holds, and the subscriber's disposable), telling the links that hold the disposables, so
/// that the observers are freed even when nobody kept a disposable, or when one is kept in the
/// bag of an object its observer captures. A subscriber's disposable keeps the core alive until
/// it is disposed or freed.
@usableFromInline
final class ReactorCore<Action, Mutation, State>: OwnedStorage, @unchecked Sendable {
  // Safety: `shared` (with the current state) is guarded by `lock`. `config` is written in
  // `wire` under `lock` before `shared.lifecycle` is wired and the `gate` opened (releasing), and
  // read by code that observed either (the drain, hence the owner thread, and `receive`'s
  // unlocked claim) or that `wire` itself started; afterwards only the owner thread rewrites
  // `config.hooks` (when it processes `.reconfigure`). `owned` belongs to the owner thread;
  // ownership passes between threads through `gate` (acquiring claims, releasing releases)
  // and `lock`. `gate`, `owner` and the other atomic words are atomic; `memory` (the body and
  // the pointers to its parts), `teardown` and `base` are immutable.

  // The storage of the atomic words below: `AtomicSlot`s, the first stored properties after
  // `OwnedStorage`'s three words (`storageOwner`, `storageKey`, `sweepMarkSlot`), in the
  // order of `Slots`, the one place their indices are written. Only accessed through their
  // views; `AtomicSlotLayoutTests` checks the layout.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case owner = 3
    case action, state, stubRecorder, stubObject, wiring, stubFlag
  }
  @usableFromInline var ownerSlot = AtomicSlot(UInt(0))
  @usableFromInline var actionSlot = AtomicSlot(UInt(0))
  @usableFromInline var stateSlot = AtomicSlot(UInt(0))
  @usableFromInline var stubRecorderSlot = AtomicSlot(UInt(0))
  @usableFromInline var stubObjectSlot = AtomicSlot(UInt(0))
  @usableFromInline var wiringSlot = AtomicSlot(UInt8(0))
  @usableFromInline var stubFlagSlot = AtomicSlot(false)

  /// The ``currentThreadIdentity()`` of the thread draining the queue, 0 when none. Written by
  /// that thread; read by others only to learn that they are not it.
  @inlinable var owner: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.owner, of: self) }
  /// Everything the core keeps for its reactor, in one allocation (see ``Body``), and
  /// pointers to its parts. Only the accessors in ReactorCore+Storage.swift (``lock``,
  /// ``gate``, ``shared``, ``config``, ``owned``), the initialiser and ``destroyBody()`` touch
  /// it.
  @usableFromInline let memory: Memory
  /// Runs ``dispose()`` or ``destroyBody()`` specialised for the reactor's types: created by
  /// the (inlined, hence specialised) initialiser, it captures nothing, and spares the
  /// unspecialised `deinit` and ``ownerDidDeinitialize()`` a metadata lookup for every generic
  /// type they would touch.
  @usableFromInline let teardown: (ReactorCore, Teardown) -> Void

  // The reactor's streams and stub, created on first use (see ReactorCore+Streams.swift). The
  // action subject and the state stream refer to the core, so ``ownerDidDeinitialize()``
  // releases them to break the cycle. Typed `AnyObject`, so that the unspecialised
  // deinitialiser and ``ownerDidDeinitialize()`` release them without a metadata lookup; the
  // accessors view the same words typed as what they make, and only they store into them.
  @inlinable var actionReference: OnceReference<AnyObject> { OnceReference(Slots.action, of: self) }
  @inlinable var stateReference: OnceReference<AnyObject> { OnceReference(Slots.state, of: self) }
  @inlinable var stubRecorderReference: OnceReference<AnyObject> {
    OnceReference(Slots.stubRecorder, of: self)
  }
  @inlinable var stubObjectReference: OnceReference<AnyObject> {
    OnceReference(Slots.stubObject, of: self)
  }
  /// ``Wiring`` state of the streams.
  @inlinable var wiring: UnsafeAtomic<UInt8> { UnsafeAtomic(Slots.wiring, of: self) }
  @inlinable var stubFlag: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.stubFlag, of: self) }

  /// Called when the core finds its reactor gone while processing.
  @inlinable var onReactorGone: () -> Void { { StorageTables.reactors.purge() } }

  /// The reactor's own `mutate` and `reduce`, before any hook: constants of the core, so a
  /// reactor without hooks needs no ``Hooks`` object and calls them without reference
  /// counting.
  @usableFromInline let base: Stages

  /// Creates the engine of a reactor whose `mutate` and `reduce` are `mutate` and `reduce`
  /// (closures that capture nothing: they receive the reactor).
  @inlinable
  init(
    mutate: @escaping (AnyObject, Action) -> Observable<Mutation>,
    reduce: @escaping (AnyObject, State, Mutation) -> State
  ) {
    base = Stages(mutate: mutate, reduce: reduce)
    memory = Memory()
    teardown = { core, step in
      switch step {
      case .dispose: core.dispose()
      case .destroy: core.destroyBody()
      }
    }
    super.init()
    // The state stream exists from the start (it is an observable, counted by `Resources`);
    // the action subject is created on first use.
    _ = state
  }

  deinit {
    teardown(self, .destroy)
  }

  /// Stops the engine once the reactor is gone, and releases the action subject and the state
  /// stream (which refer to the core): they are freed with the reactor unless someone else
  /// holds them, in which case they no longer do anything.
  @usableFromInline
  override func ownerDidDeinitialize() {
    teardown(self, .dispose)
    extendLifetime(actionReference.take())
    extendLifetime(stateReference.take())
  }

  // MARK: - Current state

  /// The latest published state, or `nil` before the first one.
  @inlinable
  var currentState: State? {
    lock.lock()
    defer { lock.unlock() }
    return shared.current
  }

  /// Returns the current state, storing `initial` first if there is none yet.
  @inlinable
  func currentState(orStore initial: State) -> State {
    lock.lock()
    defer { lock.unlock() }
    if let state = shared.current { return state }
    shared.current = initial
    return initial
  }
}
