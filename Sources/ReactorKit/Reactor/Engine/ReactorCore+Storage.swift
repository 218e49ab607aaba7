import ReactorKitStreams

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The engine's state: the struct behind its pointer and what it holds.

extension ReactorCore {
  /// Everything the core keeps for its reactor, behind ``ReactorCore/body``: one allocation,
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
    // Word-sized fields first and the flags last: Swift lays fields out in order, so this
    // keeps padding out of the engine's state block.
    @usableFromInline var actionQueue = Queue<Item>()
    @usableFromInline var mutationQueue = Queue<Item>()
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
    /// Where the core is in its life, and which streams have ended (see ``ReactorLifecycle``).
    @usableFromInline var lifecycle = ReactorLifecycle()
    /// Whether the core delivers states to the subscribers of the state stream itself: the
    /// usual case, `transform(state:)` is the identity. Set once, by the wiring.
    @usableFromInline var ownsOutput = false

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
  @usableFromInline
  final class Rare {
    @exclusivity(unchecked) @usableFromInline var inners:
      [ObjectIdentifier: InnerMutationObserver] = [:]
    @exclusivity(unchecked) @usableFromInline var subscriptions: [Disposable] = []
    @exclusivity(unchecked) @usableFromInline var installedHooks:
      [(id: UInt64, hook: ReactorHook<Action, Mutation, State>)] = []
    @exclusivity(unchecked) @usableFromInline var nextHookID: UInt64 = 0
    /// Subscribers of the state stream being sent the current state since the pipeline was
    /// being wired: the gate stays closed until they are done.
    @exclusivity(unchecked) @usableFromInline var wiringDeliveries = 0

    @inlinable init() {}
  }

  @safe
  @usableFromInline
  struct Config {
    /// The reactor's `mutate` and `reduce` wrapped in the installed ``ReactorHook``s, kept in
    /// ``hooksReference``; `nil` while no hook is installed: the core then calls its own
    /// ``ReactorCore/baseMutate`` and ``ReactorCore/baseReduce``. Set it to `nil` before the
    /// config is deinitialised.
    @inlinable var hooks: Hooks? {
      get { unsafe hooksReference?.takeUnretainedValue() }
      set {
        let replaced = unsafe hooksReference
        unsafe hooksReference = unsafe newValue.map { unsafe Unmanaged.passRetained($0) }
        unsafe replaced?.release()
      }
    }
    /// ``hooks``, retained by hand, so that the owner thread calls them without reference
    /// counting: only the owner replaces them, between two steps.
    @usableFromInline var hooksReference: Unmanaged<Hooks>?
    /// The reactor's scheduler unless it is the trampoline (most reactors): boxed, so the
    /// common case stores one word instead of an existential.
    @usableFromInline var otherScheduler: SchedulerBox?
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
    /// The reactor, loaded at the start of the drain and released at its end.
    @usableFromInline var pinned: Unmanaged<AnyObject>?
    @usableFromInline var accumulator: State?
    /// An action handed straight to the drain by ``receive(_:)`` (see there).
    @usableFromInline var firstAction: Action?
    @usableFromInline var isDelivering = false

    @inlinable init() {}
  }

  @usableFromInline
  enum Teardown {
    case dispose
    case destroy
  }
}

/// A reactor's scheduler other than the trampoline, boxed (see `ReactorCore.Config`).
@usableFromInline
final class SchedulerBox: @unchecked Sendable {
  // Safety: immutable; schedulers are thread-safe.
  @usableFromInline let scheduler: ImmediateSchedulerType

  @inlinable
  init(_ scheduler: ImmediateSchedulerType) {
    self.scheduler = scheduler
  }
}
