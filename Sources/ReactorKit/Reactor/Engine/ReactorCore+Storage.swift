import ReactorKitStreams

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The engine's memory: the struct behind its pointer and what it holds, the accessors that
// reach it, and every other unsafe construct of the engine (hand-retained references, borrowed
// references, the typed view of the reactor table's storage). The other engine files use only
// the safe accessors and helpers below.

extension ReactorCore {
  /// ``Body``'s allocation and pointers to its parts (``ReactorCore/memory``): made by the
  /// core's initialiser, freed by ``ReactorCore/destroyBody()``.
  ///
  /// ``Body/shared``, ``Body/config`` and ``Body/owned`` are taken once by name. Not derived on
  /// each access: in code shared between reactor types their offsets are not constants, and an
  /// access to `body.pointee` would be one access to the whole body for the thread sanitizer
  /// (which would then report the owner thread's `owned` and another thread's `shared` under
  /// the lock as a race).
  @safe
  @usableFromInline
  struct Memory {
    @usableFromInline let body: UnsafeMutablePointer<Body>
    @usableFromInline let shared: UnsafeMutablePointer<Shared>
    @usableFromInline let config: UnsafeMutablePointer<Config>
    @usableFromInline let owned: UnsafeMutablePointer<Owned>

    /// Allocates a body: an initialised mutex, a closed gate, empty parts.
    @inlinable @inline(__always)
    init() {
      let body = UnsafeMutablePointer<Body>.allocate(capacity: 1)
      unsafe body.initialize(to: Body())
      _ = unsafe EmbeddedLock.initialize(at: UnsafeMutableRawPointer(body.pointer(to: \.mutex)!))
      unsafe Gate.initialize(
        at: UnsafeMutableRawPointer(body.pointer(to: \.gateWord)!), closed: true)
      unsafe self.body = unsafe body
      unsafe shared = unsafe body.pointer(to: \.shared)!
      unsafe config = unsafe body.pointer(to: \.config)!
      unsafe owned = unsafe body.pointer(to: \.owned)!
    }
  }

  /// The core's mutex (``Body/mutex``).
  @inlinable var lock: EmbeddedLock { unsafe EmbeddedLock(memory.body.pointer(to: \.mutex)!) }
  /// Who drains (the package's `Gate`): `busy` while a drain is scheduled or running,
  /// `announced` once work was queued for that drain, `closed` until the pipeline is wired and
  /// once the core is disposed. Idle means wired, not disposed, nothing queued.
  ///
  /// An idle core is claimed and released with one compare-and-swap each, without the lock;
  /// everything else changes the gate with the lock held. Whoever queues work with the lock held
  /// either claims an idle core or announces the work, so a drain that releases the core with
  /// its compare-and-swap has left nothing behind.
  @inlinable var gate: Gate {
    unsafe Gate(at: UnsafeMutableRawPointer(memory.body.pointer(to: \.gateWord)!))
  }
  /// ``Body/shared``, in place (guarded by ``lock``).
  @inlinable @inline(__always) var shared: Shared {
    _read { yield unsafe memory.shared.pointee }
    _modify { yield unsafe &memory.shared.pointee }
  }
  /// ``Body/config``, in place (see the thread-safety note on ``ReactorCore``).
  @inlinable @inline(__always) var config: Config {
    _read { yield unsafe memory.config.pointee }
    _modify { yield unsafe &memory.config.pointee }
  }
  /// ``Body/owned``, in place (the owner thread's).
  @inlinable @inline(__always) var owned: Owned {
    _read { yield unsafe memory.owned.pointee }
    _modify { yield unsafe &memory.owned.pointee }
  }

  /// Deinitialises and frees the body, and releases what the atomic words hold (only the stub
  /// can be left: the streams hold the core until ``ownerDidDeinitialize()``).
  @inlinable
  func destroyBody() {
    config.hooks = nil
    lock.destroy()
    // Field by field: the mutex and the gate's word are trivial, and each destroyed struct
    // costs a walk of its fields, so destroying `Body` whole would walk those too.
    unsafe memory.shared.deinitialize(count: 1)
    unsafe memory.config.deinitialize(count: 1)
    unsafe memory.owned.deinitialize(count: 1)
    unsafe memory.body.deallocate()
    actionReference.releaseUnshared()
    stateReference.releaseUnshared()
    stubRecorderReference.releaseUnshared()
    stubObjectReference.releaseUnshared()
  }

  /// Everything the core keeps for its reactor, behind ``ReactorCore/memory``: one allocation,
  /// fields at the offsets the compiler gives them. The mutex and the gate's word are used
  /// where they lie (``ReactorCore/lock``, ``ReactorCore/gate``); the rest through the
  /// core's ``ReactorCore/shared``, ``ReactorCore/config`` and ``ReactorCore/owned``.
  @safe
  @usableFromInline
  struct Body {
    /// The mutex behind ``ReactorCore/lock``; initialised by `pthread_mutex_init`.
    @usableFromInline var mutex = unsafe pthread_mutex_t()
    /// The word of ``ReactorCore/gate``; only accessed atomically once initialised.
    @usableFromInline var gateWord: UInt = 0
    @usableFromInline var shared = Shared()
    @usableFromInline var config = Config()
    @usableFromInline var owned = Owned()

    @inlinable init() {}
  }

  @usableFromInline
  struct Shared {
    // Swift lays fields out in order, each at the next offset its alignment allows (a struct
    // field takes its size, not its stride): the drain machine ends in 32 bits, which the
    // lifecycle and the flag fill, and the word-sized fields follow, so the engine's state
    // block has no padding.
    /// The queued work and the rules for draining it (see ``ReactorDrainMachine``).
    @usableFromInline var drain = ReactorDrainMachine<Item>()
    /// Where the core is in its life, and which streams have ended (see ``ReactorLifecycle``).
    @usableFromInline var lifecycle = ReactorLifecycle()
    /// Whether the core delivers states to the subscribers of the state stream itself: the
    /// usual case, `transform(state:)` is the identity. Set once, by the wiring.
    @usableFromInline var ownsOutput = false
    /// What most reactors never use, allocated on first use (see ``rare``).
    @usableFromInline var rareStorage: Rare?
    /// The subject behind the state stream when the core does not publish states itself
    /// (``ownsOutput`` is `false`): `transform(state:)` is not the identity, or somebody
    /// subscribed while the transforms were being wired.
    @usableFromInline var replayOutput: ReplaySubject<State>?
    /// The subscribers of the state stream, in the order they subscribed: the first one
    /// inline (most reactors have one), the others in an array (only when ``ownsOutput``).
    @usableFromInline var firstObserver: OutputObserver?
    @usableFromInline var otherObservers: ContiguousArray<OutputObserver> = []
    /// The latest published state (``currentState``); `nil` before the first one.
    @usableFromInline var current: State?

    @inlinable init() {}

    /// ``rareStorage``, created if needed.
    @inlinable var rare: Rare {
      mutating get {
        if let rare = rareStorage { return rare }
        let rare = Rare()
        rareStorage = rare
        return rare
      }
    }
  }

  /// The part of ``Shared`` that most reactors never use: `mutate` results still running,
  /// subscriptions of transformed streams, installed hooks. Kept apart, so that the engine's
  /// state block stays small and is quick to destroy. Guarded by the core's lock.
  ///
  /// The properties are stored without dynamic exclusivity checks (the lock already serialises
  /// every access; checked, they cost the creation of every reactor a few instructions even
  /// when it has no `Rare`) and reached only through the accessors.
  @safe
  @usableFromInline
  final class Rare {
    @exclusivity(unchecked) @usableFromInline var innersStorage:
      [ObjectIdentifier: InnerMutationObserver] = [:]
    @exclusivity(unchecked) @usableFromInline var subscriptionsStorage: [Disposable] = []
    @exclusivity(unchecked) @usableFromInline var installedHooksStorage:
      [(id: UInt64, hook: ReactorHook<Action, Mutation, State>)] = []
    @exclusivity(unchecked) @usableFromInline var nextHookIDStorage: UInt64 = 0

    @inlinable init() {}

    /// The `mutate` results still running, by identity.
    @inlinable @inline(__always) var inners: [ObjectIdentifier: InnerMutationObserver] {
      _read { yield unsafe innersStorage }
      _modify { yield unsafe &innersStorage }
    }
    /// The subscriptions to the transformed streams, disposed with the core.
    @inlinable @inline(__always) var subscriptions: [Disposable] {
      _read { yield unsafe subscriptionsStorage }
      _modify { yield unsafe &subscriptionsStorage }
    }
    /// The installed ``ReactorHook``s, in the order they were installed, with their ids.
    @inlinable @inline(__always) var installedHooks:
      [(id: UInt64, hook: ReactorHook<Action, Mutation, State>)]
    {
      _read { yield unsafe installedHooksStorage }
      _modify { yield unsafe &installedHooksStorage }
    }
    /// The id of the next hook installed.
    @inlinable @inline(__always) var nextHookID: UInt64 {
      _read { yield unsafe nextHookIDStorage }
      _modify { yield unsafe &nextHookIDStorage }
    }
  }

  @safe
  @usableFromInline
  struct Config {
    /// The reactor's `mutate` and `reduce` wrapped in the installed ``ReactorHook``s, kept in
    /// ``hooksReference``; `nil` while no hook is installed: the core then calls its own
    /// ``ReactorCore/base`` stages. Set it to `nil` before the config is deinitialised.
    @inlinable @inline(__always) var hooks: Hooks? {
      get { hooksReference?.object }
      set {
        let replaced = hooksReference?.object
        if let newValue { _ = unsafe Unmanaged.passUnretained(newValue).retain() }
        hooksReference = newValue.map { UnretainedReference($0) }
        if let replaced { unsafe Unmanaged.passUnretained(replaced).release() }
      }
    }
    /// ``hooks``, retained by hand (by the setter of ``hooks``, which releases them when it
    /// replaces them), so that the owner thread calls them without reference counting: only
    /// the owner replaces them, between two steps. Read-only outside this type, so the +1
    /// is only ever taken and given back by that setter.
    @usableFromInline private(set) var hooksReference: UnretainedReference<Hooks>?
    /// The reactor's scheduler unless it is the trampoline (most reactors): boxed, so the
    /// common case stores one word instead of an existential.
    @usableFromInline var otherScheduler: ConstantBox<ImmediateSchedulerType>?
    @usableFromInline var actionInput: PublishSubject<Action>?
    @usableFromInline var mutationInput: PublishSubject<Mutation>?
    @usableFromInline var stateInput: BehaviorSubject<State>?
    /// ``Shared/replayOutput``, as wired.
    @usableFromInline var replayOutput: ReplaySubject<State>?
    /// Whether the scheduler is the trampoline, called directly on the hot path.
    @usableFromInline var usesCurrentThreadScheduler = true
    /// ``Shared/ownsOutput``, as wired.
    @usableFromInline var ownsOutput = false

    @inlinable init() {}
  }

  @safe
  @usableFromInline
  struct Owned {
    /// The reactor, loaded at the start of the drain and released at its end: the drain
    /// keeps it alive while this is set (see ``ReactorCore/drain(startingWith:)``).
    @usableFromInline var pinned: UnretainedReference<AnyObject>?
    @usableFromInline var accumulator: State?
    @usableFromInline var isDelivering = false

    @inlinable init() {}
  }

  @usableFromInline
  enum Teardown {
    case dispose
    case destroy
  }

  // MARK: - Hand-managed references

  /// The engine of a reactor of type `R`: its `mutate` and `reduce` call the reactor's own, on
  /// the object the core passes them, which is always its owner
  /// (``OwnedStorage/storageOwner``), the reactor: an `R`, viewed as such without a dynamic
  /// cast.
  @inlinable
  convenience init<R: Reactor>(for _: R.Type)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    self.init(
      mutate: { owner, action in unsafe unsafeDowncast(owner, to: R.self).mutate(action: action) },
      reduce: { owner, state, mutation in
        unsafe unsafeDowncast(owner, to: R.self).reduce(state: state, mutation: mutation)
      })
  }

  /// `storage`, the reactor table's storage of a reactor with these types (made with
  /// ``init(for:)``), viewed as its core without a dynamic cast: a reactor's associated types
  /// never change, so its storage always has this type.
  @inlinable
  static func core(from storage: OwnedStorage) -> ReactorCore {
    unsafe unsafeDowncast(storage, to: ReactorCore.self)
  }

  /// The disposable of a new subscriber of the state stream (see ``OutputObserver``): it keeps
  /// the core, retained, until it is disposed or freed; its disposal hands that reference to
  /// ``observerDisposed(_:)``.
  @inlinable
  func makeObserverSubscription() -> ExternalSubscription {
    unsafe ExternalSubscription(
      context: Unmanaged.passRetained(self).toOpaque(),
      unregister: { core, subscription in
        let core = unsafe Unmanaged<ReactorCore>.fromOpaque(core).takeRetainedValue()
        core.observerDisposed(subscription)
      })
  }

  /// The disposable of a subscriber the core lets go of at once (it is disposed): it keeps the
  /// core, retained, until it is disposed or freed, and does nothing else.
  @inlinable
  func makeReleasedSubscription() -> ExternalSubscription {
    unsafe ExternalSubscription(
      context: Unmanaged.passRetained(self).toOpaque(),
      unregister: { core, _ in unsafe Unmanaged<ReactorCore>.fromOpaque(core).release() })
  }

  /// Calls `body` with each of `observers`, in order, without retaining them: `observers`,
  /// which the caller holds, keeps them alive.
  @inlinable @inline(__always)
  func forEachObserver(
    in observers: ContiguousArray<OutputObserver>, _ body: (OutputObserver) -> Void
  ) {
    unsafe observers.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        unsafe Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef(body)
      }
    }
  }
}

/// One constant value in an object, so a struct field holds it in one word: a reactor's
/// scheduler other than the trampoline (`ReactorCore.Config.otherScheduler`), its installed
/// hooks (`ReactorCore.Hooks`).
@usableFromInline
final class ConstantBox<Value>: @unchecked Sendable {
  // Safety: immutable. What `value` may be used for is up to each use: a scheduler is
  // thread-safe; hooks are called only by the core's owner thread.
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
