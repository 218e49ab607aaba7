import ReactorKitStreams
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
/// ## Performance
///
/// The per-action path is `@inlinable`, so it is specialised for the reactor's types in the
/// module that defines the reactor, and mutable state lives behind pointers, so it pays no
/// dynamic exclusivity checks.
///
/// ## Lifetime
///
/// The core keeps its reactor weakly (``OwnedStorage/storageOwner``). ``dispose()`` (called
/// once the reactor is gone) stops the queue, disposes every subscription it holds and lets
/// go of the state stream's subscribers, which keep the core alive until they are disposed.
@usableFromInline
final class ReactorCore<Action, Mutation, State>: OwnedStorage, @unchecked Sendable {
  // Safety: `shared` (with the current state) is guarded by `lock`. `config` is written in
  // `wire` under `lock` before `shared.isWired` is set and the `gate` opened (releasing), and
  // read by code that observed either (the drain, hence the owner thread, and `receive`'s
  // unlocked claim) or that `wire` itself started; afterwards only the owner thread rewrites
  // `config.hooks` (when it processes `.reconfigure`). `owned` belongs to the owner thread;
  // ownership passes between threads through `gate` (acquiring claims, releasing releases)
  // and `lock`. `gate`, `owner` and the other atomic words are atomic; `body`, `teardown`,
  // `baseMutate` and `baseReduce` are immutable.

  /// What the core calls on its reactor while ``ReactorHook``s are installed: its `mutate`
  /// and `reduce` wrapped in the hooks (without hooks, ``baseMutate`` and ``baseReduce``).
  ///
  /// The core loads the reactor from ``OwnedStorage/storageOwner`` once per drain (a weak
  /// load, `nil` once the reactor is gone) and keeps it alive until the drain ends; ``mutate``
  /// and ``reduce`` receive it, so a drain pays one weak load however many actions and
  /// mutations it runs.
  ///
  /// A class with constant closures: the drain borrows it (``Config/hooksReference``) and
  /// calls the closures without retaining their contexts.
  @usableFromInline
  final class Hooks: @unchecked Sendable {
    // Safety: immutable; the closures are called only by the core's owner thread.
    @usableFromInline let mutate: (AnyObject, Action) -> Observable<Mutation>
    @usableFromInline let reduce: (AnyObject, State, Mutation) -> State

    @inlinable
    init(
      mutate: @escaping (AnyObject, Action) -> Observable<Mutation>,
      reduce: @escaping (AnyObject, State, Mutation) -> State
    ) {
      self.mutate = mutate
      self.reduce = reduce
    }
  }

  @usableFromInline
  enum Item {
    /// An action from the action subject, before `transform(action:)`.
    case action(Action)
    /// An action emitted by the transformed action stream.
    case transformedAction(Action)
    /// The transformed action stream ended.
    case endOfActions
    /// A mutation emitted by a `mutate` result, before `transform(mutation:)`.
    case innerMutation(Mutation)
    /// A mutation emitted by the transformed mutation stream.
    case mutation(Mutation)
    /// The transformed mutation stream ended.
    case endOfMutations
    /// The installed ``ReactorHook``s changed: rebuild `config.hooks`.
    case reconfigure
    /// A subscriber of the state stream that could not be registered at once (see
    /// ``subscribeOutput(_:)``): registered, and sent the current state, by the owner.
    case addObserver(OutputObserver)
    /// The state stream ends (see ``endStates()``).
    case endOfStates
  }

  /// The bits of ``gate``.
  @usableFromInline
  enum Gate {
    @inlinable static var busy: UInt { 1 }
    @inlinable static var announced: UInt { 2 }
    @inlinable static var closed: UInt { 4 }
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
    @usableFromInline var isWired = false
    @usableFromInline var isDisposed = false
    @usableFromInline var actionsEnded = false
    @usableFromInline var mutationsEnded = false
    /// Whether the core delivers states to the subscribers of the state stream itself: the
    /// usual case, `transform(state:)` is the identity. Set once, by the wiring.
    @usableFromInline var ownsOutput = false
    /// Whether the state stream completed (only when ``ownsOutput``).
    @usableFromInline var outputEnded = false

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

    @inlinable init() {}
  }

  @usableFromInline
  struct Config {
    /// The reactor's `mutate` and `reduce` wrapped in the installed ``ReactorHook``s, kept in
    /// ``hooksReference``; `nil` while no hook is installed: the core then calls its own
    /// ``ReactorCore/baseMutate`` and ``ReactorCore/baseReduce``. Set it to `nil` before the
    /// config is deinitialised.
    @inlinable var hooks: Hooks? {
      get { hooksReference?.takeUnretainedValue() }
      set {
        let replaced = hooksReference
        hooksReference = newValue.map { Unmanaged.passRetained($0) }
        replaced?.release()
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

  /// Who drains, as bits: ``Gate/busy`` while a drain is scheduled or running,
  /// ``Gate/announced`` once work was queued for that drain, ``Gate/closed`` until the
  /// pipeline is wired and once the core is disposed. `0` means idle: wired, not disposed,
  /// nothing queued.
  ///
  /// An idle core is claimed (`0` → `busy`) and released (`busy` → `0`) with one
  /// compare-and-swap each, without the lock; everything else changes the gate with the lock
  /// held. Whoever queues work with the lock held either claims an idle core or announces the
  /// work, so a drain that releases the core with its compare-and-swap has left nothing behind.
  @usableFromInline let gate = Atomic<UInt>(Gate.closed)
  /// The ``currentThreadIdentity()`` of the thread draining the queue, 0 when none. Written by
  /// that thread; read by others only to learn that they are not it.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// One allocation holding the mutex behind ``lock``, then ``Shared``, ``Config`` and
  /// ``Owned``, each at its alignment (see ``sharedOffset`` and the following offsets). In
  /// code specialised for the reactor's types the offsets are constants.
  @usableFromInline let body: UnsafeMutableRawPointer
  /// Runs ``dispose()`` or ``destroyBody()`` specialised for the reactor's types: created by
  /// the (inlined, hence specialised) initialiser, it captures nothing, and spares the
  /// unspecialised `deinit` and ``ownerDidDeinitialize()`` a metadata lookup for every generic
  /// type they would touch.
  @usableFromInline let teardown: (ReactorCore, Teardown) -> Void

  // The reactor's streams and stub, created on first use and published through atomic words
  // holding retained references (see ReactorStorage.swift). The action subject and the state
  // stream refer to the core, so ``ownerDidDeinitialize()`` releases them to break the cycle.
  @usableFromInline let actionBits = Atomic<UInt>(0)
  @usableFromInline let stateBits = Atomic<UInt>(0)
  @usableFromInline let stubRecorderBits = Atomic<UInt>(0)
  @usableFromInline let stubObjectBits = Atomic<UInt>(0)
  /// ``Wiring`` state of the streams.
  @usableFromInline let wiring = Atomic<UInt8>(0)
  @usableFromInline let stubFlag = Atomic<Bool>(false)

  @usableFromInline
  enum Teardown {
    case dispose
    case destroy
    /// Unregisters the ``OutputObserver`` passed along.
    case removeObserver(AnyObject)
  }

  /// The core's mutex, at the start of ``body``.
  @inlinable var lock: EmbeddedLock {
    EmbeddedLock(body.assumingMemoryBound(to: pthread_mutex_t.self))
  }
  @inlinable var shared: UnsafeMutablePointer<Shared> {
    (body + Self.sharedOffset).assumingMemoryBound(to: Shared.self)
  }
  @inlinable var config: UnsafeMutablePointer<Config> {
    (body + Self.configOffset).assumingMemoryBound(to: Config.self)
  }
  @inlinable var owned: UnsafeMutablePointer<Owned> {
    (body + Self.ownedOffset).assumingMemoryBound(to: Owned.self)
  }

  @inlinable static var sharedOffset: Int {
    aligned(MemoryLayout<pthread_mutex_t>.stride, to: MemoryLayout<Shared>.alignment)
  }
  @inlinable static var configOffset: Int {
    aligned(sharedOffset + MemoryLayout<Shared>.stride, to: MemoryLayout<Config>.alignment)
  }
  @inlinable static var ownedOffset: Int {
    aligned(configOffset + MemoryLayout<Config>.stride, to: MemoryLayout<Owned>.alignment)
  }

  /// Called when the core finds its reactor gone while processing.
  @inlinable var onReactorGone: () -> Void { { StorageTables.reactors.purge() } }

  /// The reactor's own `mutate` and `reduce`, before any hook: constants of the core, so a
  /// reactor without hooks needs no ``Hooks`` object and calls them without reference
  /// counting.
  @usableFromInline let baseMutate: (AnyObject, Action) -> Observable<Mutation>
  @usableFromInline let baseReduce: (AnyObject, State, Mutation) -> State

  /// Creates the engine of a reactor whose `mutate` and `reduce` are `mutate` and `reduce`
  /// (closures that capture nothing: they receive the reactor).
  @inlinable
  init(
    mutate: @escaping (AnyObject, Action) -> Observable<Mutation>,
    reduce: @escaping (AnyObject, State, Mutation) -> State
  ) {
    baseMutate = mutate
    baseReduce = reduce
    let alignment = max(
      MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Shared>.alignment,
      MemoryLayout<Config>.alignment, MemoryLayout<Owned>.alignment)
    let body = UnsafeMutableRawPointer.allocate(
      byteCount: Self.ownedOffset + MemoryLayout<Owned>.stride, alignment: alignment)
    _ = EmbeddedLock.initialize(at: body)
    (body + Self.sharedOffset).initializeMemory(as: Shared.self, to: Shared())
    (body + Self.configOffset).initializeMemory(as: Config.self, to: Config())
    (body + Self.ownedOffset).initializeMemory(as: Owned.self, to: Owned())
    self.body = body
    teardown = { core, step in
      switch step {
      case .dispose: core.dispose()
      case .destroy: core.destroyBody()
      case .removeObserver(let observer):
        core.removeObserver(unsafeDowncast(observer, to: OutputObserver.self))
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

  /// Deinitialises and frees ``body``, and releases what the atomic words hold (only the stub
  /// can be left: the streams hold the core until ``ownerDidDeinitialize()``).
  @inlinable
  func destroyBody() {
    config.pointee.hooks = nil
    shared.deinitialize(count: 1)
    config.deinitialize(count: 1)
    owned.deinitialize(count: 1)
    lock.destroy()
    body.deallocate()
    releaseOnceReference(actionBits.load(ordering: .acquiring))
    releaseOnceReference(stateBits.load(ordering: .acquiring))
    releaseOnceReference(stubRecorderBits.load(ordering: .acquiring))
    releaseOnceReference(stubObjectBits.load(ordering: .acquiring))
  }

  /// Stops the engine once the reactor is gone, and releases the action subject and the state
  /// stream (which refer to the core): they are freed with the reactor unless someone else
  /// holds them, in which case they no longer do anything.
  @usableFromInline
  override func ownerDidDeinitialize() {
    teardown(self, .dispose)
    releaseOnceReference(actionBits.exchange(0, ordering: .acquiringAndReleasing))
    releaseOnceReference(stateBits.exchange(0, ordering: .acquiringAndReleasing))
  }

  // MARK: - Current state

  /// The latest published state, or `nil` before the first one.
  @inlinable
  var currentState: State? {
    lock.lock()
    defer { lock.unlock() }
    return shared.pointee.current
  }

  /// Returns the current state, storing `initial` first if there is none yet.
  @inlinable
  func currentState(orStore initial: State) -> State {
    lock.lock()
    defer { lock.unlock() }
    if let state = shared.pointee.current { return state }
    shared.pointee.current = initial
    return initial
  }

  // MARK: - Output

  /// Subscribes `observer` to the public state stream.
  ///
  /// When the core publishes states itself (``Shared/ownsOutput``), the observer receives the
  /// current state, then every later one, serially: whoever delivers the current state holds
  /// the right to deliver states, so no state published meanwhile can overtake it.
  /// - The owner thread, between two steps, or any thread while the pipeline is still being
  ///   wired (nothing publishes then), delivers at once.
  /// - Another thread claims an idle ``gate`` (as an action would), delivers, and releases the
  ///   gate, scheduling a drain if work was announced meanwhile.
  /// - Otherwise (a drain runs elsewhere, or the owner is delivering a state) the observer is
  ///   queued; the owner registers it and sends it the current state after the current step.
  @inlinable
  func subscribeOutput(_ observer: AnyObserver<State>) -> Disposable {
    lock.lock()
    guard shared.pointee.ownsOutput else {
      let output = replayOutputLocked()
      lock.unlock()
      return output.subscribe(observer)
    }
    if shared.pointee.outputEnded {
      lock.unlock()
      observer.on(.completed)
      return Disposables.create()
    }
    // The wiring stores the initial state before it sets `ownsOutput`.
    let current = shared.pointee.current!
    if shared.pointee.isDisposed {
      // The reactor is gone: the last state, and nothing more.
      lock.unlock()
      observer.on(.next(current))
      return Disposables.create()
    }
    let entry = OutputObserver(observer, core: self)
    let gateBits = gate.load(ordering: .acquiring)
    var claimed = false
    var isOwner = false
    if gateBits & Gate.closed != 0 {
      // Closed and not disposed: still wiring, and nothing publishes until the gate opens.
    } else if owner.load(ordering: .relaxed) == currentThreadIdentity() {
      // `isDelivering` belongs to the owner, read only once the caller is known to be it.
      isOwner = true
      if owned.pointee.isDelivering { return queueObserverLocked(entry) }
    } else if gateBits == 0,
      gate.compareExchange(expected: 0, desired: Gate.busy, ordering: .acquiring).exchanged
    {
      claimed = true
    } else {
      return queueObserverLocked(entry)
    }
    appendObserverLocked(entry)
    lock.unlock()
    if isOwner {
      // What the observer sends the reactor is queued, not run inside its `onNext`.
      owned.pointee.isDelivering = true
      entry.deliver(.next(current))
      owned.pointee.isDelivering = false
    } else {
      entry.deliver(.next(current))
    }
    if claimed { releaseClaimedGate() }
    return entry
  }

  /// Queues `entry` for the owner to register (``Item/addObserver(_:)``). Call with the lock
  /// held; releases it.
  @inlinable
  func queueObserverLocked(_ entry: OutputObserver) -> Disposable {
    shared.pointee.mutationQueue.append(.addObserver(entry))
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
    return entry
  }

  /// Releases a ``gate`` claimed by ``subscribeOutput(_:)``; drains what was queued meanwhile.
  @inlinable
  func releaseClaimedGate() {
    if gate.compareExchange(expected: Gate.busy, desired: 0, ordering: .releasing).exchanged {
      return
    }
    lock.lock()
    if shared.pointee.isDisposed {
      gate.store(Gate.closed, ordering: .releasing)
      lock.unlock()
      return
    }
    // Work was announced: hand the gate, still busy, to a drain.
    gate.store(Gate.busy, ordering: .relaxed)
    lock.unlock()
    scheduleDrain()
  }

  /// Registers a subscriber of the state stream. Call with the lock held.
  @inlinable
  func appendObserverLocked(_ entry: OutputObserver) {
    if shared.pointee.firstObserver == nil && shared.pointee.otherObservers.isEmpty {
      shared.pointee.firstObserver = entry
    } else {
      shared.pointee.otherObservers.append(entry)
    }
  }

  /// Registers a queued subscriber and sends it the current state (owner thread).
  @inlinable
  func addQueuedObserver(_ entry: OutputObserver) {
    lock.lock()
    guard !shared.pointee.isDisposed, let current = shared.pointee.current else {
      lock.unlock()
      return
    }
    let ended = shared.pointee.outputEnded
    if !ended { appendObserverLocked(entry) }
    lock.unlock()
    owned.pointee.isDelivering = true
    defer { owned.pointee.isDelivering = false }
    entry.deliver(.next(current))
    // Subscribed before the stream ended: it gets the end too.
    if ended { entry.deliver(.completed) }
  }

  /// Unregisters a subscriber of the state stream (any thread). Inlinable, so that
  /// ``teardown`` calls it specialised.
  @inlinable
  func removeObserver(_ entry: OutputObserver) {
    lock.lock()
    var removed: OutputObserver?
    if shared.pointee.firstObserver === entry {
      removed = shared.pointee.firstObserver.take()
      if !shared.pointee.otherObservers.isEmpty {
        shared.pointee.firstObserver = shared.pointee.otherObservers.removeFirst()
      }
    } else if let index = shared.pointee.otherObservers.firstIndex(where: { $0 === entry }) {
      removed = shared.pointee.otherObservers.remove(at: index)
    }
    lock.unlock()
    // Released after the lock: its deinitialiser may run user code.
    withExtendedLifetime(removed) {}
  }

  /// Delivers `event` to every registered subscriber of the state stream (owner thread);
  /// the subscribers are taken under the lock, with the new current state for `.next`.
  @inlinable
  func deliverToObservers(
    _ event: Event<State>,
    _ first: OutputObserver?, _ others: ContiguousArray<OutputObserver>?
  ) {
    first?.deliver(event)
    others?.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.deliver(event) }
      }
    }
  }

  /// Completes the state stream the core publishes itself (owner thread).
  @inlinable
  func completeOwnOutput() {
    lock.lock()
    guard !shared.pointee.outputEnded else {
      lock.unlock()
      return
    }
    shared.pointee.outputEnded = true
    let first = shared.pointee.firstObserver.take()
    let others = shared.pointee.otherObservers
    shared.pointee.otherObservers = []
    lock.unlock()
    owned.pointee.isDelivering = true
    defer { owned.pointee.isDelivering = false }
    deliverToObservers(.completed, first, others)
  }

  /// The subject behind the state stream when the core does not publish states itself:
  /// created by the wiring, or here by a subscriber that comes first (only possible while the
  /// streams are being created). Call with the lock held.
  @inlinable
  func replayOutputLocked() -> ReplaySubject<State> {
    if let output = shared.pointee.replayOutput { return output }
    let output = ReplaySubject<State>.create(bufferSize: 1)
    shared.pointee.replayOutput = output
    return output
  }

  // MARK: - Wiring

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
    if shared.pointee.current == nil { shared.pointee.current = initialState }
    lock.unlock()
    let actionInput = Observable<Action>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.pointee.actionInput }, set: { $0.pointee.actionInput = $1 },
        make: { PublishSubject() }
      ).subscribe(observer)
    }
    let transformedAction = transformAction(actionInput)
    let mutationInput = Observable<Mutation>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.pointee.mutationInput }, set: { $0.pointee.mutationInput = $1 },
        make: { PublishSubject() }
      ).subscribe(observer)
    }
    let transformedMutation = transformMutation(mutationInput)
    let stateInput = Observable<State>(uncounted: ()) { [self] observer in
      inputSubject(
        get: { $0.pointee.stateInput }, set: { $0.pointee.stateInput = $1 },
        make: { BehaviorSubject(value: shared.pointee.current!) }
      ).subscribe(observer)
    }
    let transformedState = transformState(stateInput)

    let actionIsIdentity = transformedAction === actionInput
    let mutationIsIdentity = transformedMutation === mutationInput
    let stateIsIdentity = transformedState === stateInput

    lock.lock()
    // The core publishes states itself unless `transform(state:)` changes them or somebody
    // subscribed while the transforms ran (to a replay subject, kept then).
    let ownsOutput = stateIsIdentity && shared.pointee.replayOutput == nil
    if ownsOutput {
      // The current state is the initial one (stored above).
      shared.pointee.ownsOutput = true
      config.pointee.ownsOutput = true
    } else {
      config.pointee.replayOutput = replayOutputLocked()
    }
    // Hooks installed before the wiring wrap the reactor's own; without any, `compose` (not
    // specialised, and building a key path) would return `hooks` unchanged.
    let installed = shared.pointee.rareStorage?.installedHooks ?? []
    config.pointee.hooks = installed.isEmpty ? nil : composedHooks(installed.map(\.hook))
    // A metatype comparison (the class is final) instead of a dynamic cast.
    config.pointee.usesCurrentThreadScheduler = type(of: scheduler) == CurrentThreadScheduler.self
    config.pointee.otherScheduler =
      config.pointee.usesCurrentThreadScheduler ? nil : SchedulerBox(scheduler)
    // An identity transform is bypassed: its input subject, if a transform subscribed to it
    // while wiring, is never fed (as before the stand-ins).
    if actionIsIdentity {
      config.pointee.actionInput = nil
    } else if config.pointee.actionInput == nil {
      config.pointee.actionInput = PublishSubject()
    }
    if mutationIsIdentity {
      config.pointee.mutationInput = nil
    } else if config.pointee.mutationInput == nil {
      config.pointee.mutationInput = PublishSubject()
    }
    if stateIsIdentity {
      config.pointee.stateInput = nil
    } else if config.pointee.stateInput == nil {
      config.pointee.stateInput = BehaviorSubject(value: initialState)
    }
    owned.pointee.accumulator = initialState
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
    shared.pointee.isWired = true
    let schedule = scheduleDrainIfNeededLocked()
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
    get: (UnsafeMutablePointer<Config>) -> Subject?,
    set: (UnsafeMutablePointer<Config>, Subject) -> Void, make: () -> Subject
  ) -> Subject {
    lock.lock()
    defer { lock.unlock() }
    if let subject = get(config) { return subject }
    let subject = make()
    if !shared.pointee.isWired { set(config, subject) }
    return subject
  }

  @inlinable
  func keep(_ subscription: Disposable) {
    lock.lock()
    if shared.pointee.isDisposed {
      lock.unlock()
      subscription.dispose()
      return
    }
    shared.pointee.rare.subscriptions.append(subscription)
    lock.unlock()
  }

  // MARK: - Entry points

  /// Queues an action from the action subject. Thread-safe; returns at once when another
  /// thread (or an outer frame of this one) is processing.
  ///
  /// The common case, an idle reactor on `CurrentThreadScheduler` sent an action from a thread
  /// that is not inside a trampoline, skips the queue and the lock: the calling thread claims
  /// the idle ``gate`` and becomes the owner, and the drain, which runs at once, starts with
  /// the action.
  @inlinable
  func receive(_ action: Action) {
    // An idle gate was opened by the wiring (releasing), so `config` is readable here.
    if gate.load(ordering: .acquiring) == 0, config.pointee.usesCurrentThreadScheduler,
      CurrentThreadScheduler.runTrampolined(
        if: {
          guard
            gate.compareExchange(expected: 0, desired: Gate.busy, ordering: .acquiring).exchanged
          else { return false }
          owner.store(currentThreadIdentity(), ordering: .relaxed)
          // No drain runs (the gate was idle), so this thread may write the owner's state.
          owned.pointee.firstAction = action
          return true
        }, { drain() })
    {
      return
    }
    lock.lock()
    guard !shared.pointee.isDisposed else {
      lock.unlock()
      return
    }
    shared.pointee.actionQueue.append(.action(action))
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
  }

  @inlinable
  func receiveTransformedAction(_ event: Event<Action>) {
    switch event {
    case .next(let action):
      if enqueueUnlessInline(.transformedAction(action), urgent: false) { run(action) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfActions, urgent: false, allowInline: false)
    }
  }

  @inlinable
  func receiveInner(_ mutation: Mutation) {
    if enqueueUnlessInline(.innerMutation(mutation), urgent: true) { emit(mutation) }
  }

  @inlinable
  func receiveTransformedMutation(_ event: Event<Mutation>) {
    switch event {
    case .next(let mutation):
      if enqueueUnlessInline(.mutation(mutation), urgent: true) { apply(mutation) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfMutations, urgent: true, allowInline: false)
    }
  }

  @inlinable
  func receiveTransformedState(_ event: Event<State>) {
    switch event {
    case .next(let state): publish(state)
    case .error, .completed: config.pointee.replayOutput?.on(event)
    }
  }

  /// Queues `item`, unless the caller is the owner thread outside of a state delivery, in
  /// which case it returns `true` and the caller processes the item at once.
  @inlinable
  func enqueueUnlessInline(_ item: Item, urgent: Bool, allowInline: Bool = true) -> Bool {
    lock.lock()
    guard !shared.pointee.isDisposed else {
      lock.unlock()
      return false
    }
    // `isDelivering` belongs to the owner, so it is read only once the caller is known to be
    // the owner.
    if allowInline, owner.load(ordering: .relaxed) == currentThreadIdentity(),
      !owned.pointee.isDelivering
    {
      lock.unlock()
      return true
    }
    if urgent {
      shared.pointee.mutationQueue.append(item)
    } else {
      shared.pointee.actionQueue.append(item)
    }
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
    return false
  }

  // MARK: - Draining

  /// Makes sure queued work will be drained: claims an idle ``gate`` (the caller then
  /// schedules the drain) or announces the work to the drain in progress. Opens the gate once
  /// the pipeline is wired. Call with the lock held.
  ///
  /// - Returns: Whether the caller must schedule a drain.
  @inlinable
  func scheduleDrainIfNeededLocked() -> Bool {
    guard shared.pointee.isWired, !shared.pointee.isDisposed else { return false }
    let hasWork = !shared.pointee.actionQueue.isEmpty || !shared.pointee.mutationQueue.isEmpty
    while true {
      let current = gate.load(ordering: .acquiring)
      if current == Gate.closed {
        // Wired just now (with the lock held nothing else opens it): publishes `config`.
        gate.store(hasWork ? Gate.busy : 0, ordering: .releasing)
        return hasWork
      }
      guard hasWork else { return false }
      if current & Gate.announced != 0 { return false }
      let desired = current == 0 ? Gate.busy : current | Gate.announced
      // Races only with an unlocked claim (`0` → `busy`) or release (`busy` → `0`).
      if gate.compareExchange(expected: current, desired: desired, ordering: .acquiringAndReleasing)
        .exchanged
      {
        return current == 0
      }
    }
  }

  @inlinable
  func scheduleDrain() {
    if let other = config.pointee.otherScheduler {
      _ = other.scheduler.schedule(self) { core in
        core.drain()
        return Disposables.create()
      }
    } else {
      _ = CurrentThreadScheduler.instance.schedule(self) { core in
        core.drain()
        return Disposables.create()
      }
    }
  }

  /// Processes queued work until the queue is empty. Runs on the scheduler, one drain at a
  /// time (the ``gate`` is `busy` meanwhile); the draining thread is the owner.
  ///
  /// The reactor is loaded once, here, and kept alive (pinned) until the drain ends; when it
  /// is gone the core is disposed instead.
  @inlinable
  func drain() {
    let first = owned.pointee.firstAction.take()
    guard let reactor = storageOwner else {
      reactorGone()
      lock.lock()
      owner.store(0, ordering: .relaxed)
      gate.store(Gate.closed, ordering: .releasing)
      lock.unlock()
      return
    }
    // `reactor` keeps it alive until the end of this function; the hooks borrow it.
    let pinned = Unmanaged.passUnretained(reactor)
    // Whether the gate may still be released without looking at the queue: true after the
    // first action, which `receive` handed over after claiming the idle gate (nothing was
    // queued then); a drain that was scheduled has queued work to look at first.
    var mayRelease = false
    if let first {
      owned.pointee.pinned = pinned
      process(.action(first))
      mayRelease = true
    }
    while true {
      if mayRelease {
        // Nothing was queued since the queue was last found empty unless it was announced:
        // release the core without the lock.
        owner.store(0, ordering: .relaxed)
        owned.pointee.pinned = nil
        if gate.compareExchange(expected: Gate.busy, desired: 0, ordering: .releasing).exchanged {
          break
        }
      }
      lock.lock()
      if shared.pointee.isDisposed {
        owner.store(0, ordering: .relaxed)
        owned.pointee.pinned = nil
        gate.store(Gate.closed, ordering: .releasing)
        lock.unlock()
        break
      }
      // Everything queued so far is taken from here on; later work announces itself again.
      gate.store(Gate.busy, ordering: .relaxed)
      owner.store(currentThreadIdentity(), ordering: .relaxed)
      owned.pointee.pinned = pinned
      while !shared.pointee.isDisposed, let item = nextLocked() {
        lock.unlock()
        process(item)
        lock.lock()
      }
      lock.unlock()
      mayRelease = true
    }
    // Released last: the reactor's deinitialiser may run here.
    extendLifetime(reactor)
  }

  @inlinable
  func nextLocked() -> Item? {
    if let item = shared.pointee.mutationQueue.popFirst() { return item }
    return shared.pointee.actionQueue.popFirst()
  }

  @inlinable
  func process(_ item: Item) {
    switch item {
    case .action(let action):
      if let actionInput = config.pointee.actionInput {
        actionInput.on(.next(action))
      } else {
        run(action)
      }
    case .transformedAction(let action):
      run(action)
    case .endOfActions:
      lock.lock()
      shared.pointee.actionsEnded = true
      let ended = shared.pointee.rareStorage?.inners.isEmpty ?? true
      lock.unlock()
      if ended { endMutations() }
    case .innerMutation(let mutation):
      emit(mutation)
    case .mutation(let mutation):
      apply(mutation)
    case .endOfMutations:
      endStates()
    case .reconfigure:
      reconfigure()
    case .addObserver(let entry):
      addQueuedObserver(entry)
    case .endOfStates:
      completeOwnOutput()
    }
  }

  // MARK: - Hooks

  /// Installs `hook`; it takes effect when the owner processes the queued `.reconfigure`.
  @usableFromInline
  func addHook(_ hook: ReactorHook<Action, Mutation, State>) -> Disposable {
    lock.lock()
    guard !shared.pointee.isDisposed else {
      lock.unlock()
      return Disposables.create()
    }
    let rare = shared.pointee.rare
    let id = rare.nextHookID
    rare.nextHookID += 1
    rare.installedHooks.append((id, hook))
    shared.pointee.mutationQueue.append(.reconfigure)
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
    return Disposables.create { [weak self] in self?.removeHook(id) }
  }

  private func removeHook(_ id: UInt64) {
    lock.lock()
    guard !shared.pointee.isDisposed,
      let rare = shared.pointee.rareStorage,
      let index = rare.installedHooks.firstIndex(where: { $0.id == id })
    else {
      lock.unlock()
      return
    }
    let removed = rare.installedHooks.remove(at: index)
    shared.pointee.mutationQueue.append(.reconfigure)
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    withExtendedLifetime(removed) {}
    if schedule { scheduleDrain() }
  }

  /// Rebuilds `config.hooks` from the installed hooks (owner thread).
  @usableFromInline
  func reconfigure() {
    lock.lock()
    let installed = shared.pointee.rareStorage?.installedHooks.map(\.hook) ?? []
    lock.unlock()
    config.pointee.hooks = installed.isEmpty ? nil : composedHooks(installed)
  }

  /// The reactor's own `mutate` and `reduce` wrapped in `installed`, the first one outermost.
  @usableFromInline
  func composedHooks(_ installed: [ReactorHook<Action, Mutation, State>]) -> Hooks {
    var mutate = baseMutate
    var reduce = baseReduce
    for hook in installed.reversed() {
      if let wrap = hook.mutate {
        let inner = mutate
        mutate = { owner, action in wrap(action) { action in inner(owner, action) } }
      }
      if let wrap = hook.reduce {
        let inner = reduce
        reduce = { owner, state, mutation in
          wrap(state, mutation) { state, mutation in inner(owner, state, mutation) }
        }
      }
    }
    return Hooks(mutate: mutate, reduce: reduce)
  }

  // MARK: - Stages

  /// Runs `mutate` for `action` and feeds what it returns into the mutation stage.
  @inlinable
  func run(_ action: Action) {
    guard let pinned = owned.pointee.pinned else { return reactorGone() }
    let mutations = mutate(pinned, action)
    if mutations.forEachSynchronousElement({ emit($0) }) { return }
    let inner = InnerMutationObserver(core: self)
    lock.lock()
    guard !shared.pointee.isDisposed else {
      lock.unlock()
      return
    }
    shared.pointee.rare.inners[ObjectIdentifier(inner)] = inner
    lock.unlock()
    inner.subscription.setDisposable(mutations.subscribe(inner))
  }

  /// Calls `mutate`, through the hooks when any is installed (owner thread).
  @inlinable
  func mutate(_ pinned: Unmanaged<AnyObject>, _ action: Action) -> Observable<Mutation> {
    if let hooks = config.pointee.hooksReference {
      return hooks._withUnsafeGuaranteedRef { hooks in
        pinned._withUnsafeGuaranteedRef { hooks.mutate($0, action) }
      }
    }
    return pinned._withUnsafeGuaranteedRef { baseMutate($0, action) }
  }

  /// Calls `reduce`, through the hooks when any is installed (owner thread).
  @inlinable
  func reduce(_ pinned: Unmanaged<AnyObject>, _ state: State, _ mutation: Mutation) -> State {
    if let hooks = config.pointee.hooksReference {
      return hooks._withUnsafeGuaranteedRef { hooks in
        pinned._withUnsafeGuaranteedRef { hooks.reduce($0, state, mutation) }
      }
    }
    return pinned._withUnsafeGuaranteedRef { baseReduce($0, state, mutation) }
  }

  @inlinable
  func innerFinished(_ inner: InnerMutationObserver) {
    lock.lock()
    let rare = shared.pointee.rareStorage
    let removed = rare?.inners.removeValue(forKey: ObjectIdentifier(inner)) != nil
    let ended = removed && shared.pointee.actionsEnded && rare?.inners.isEmpty == true
    lock.unlock()
    inner.subscription.dispose()
    if ended { endMutations() }
  }

  /// Feeds a mutation into `transform(mutation:)`, or straight into `reduce`.
  @inlinable
  func emit(_ mutation: Mutation) {
    if let mutationInput = config.pointee.mutationInput {
      mutationInput.on(.next(mutation))
    } else {
      apply(mutation)
    }
  }

  /// Reduces a mutation and sends the new state on (on the owner thread).
  @inlinable
  func apply(_ mutation: Mutation) {
    guard let state = owned.pointee.accumulator else { return }
    owned.pointee.isDelivering = true
    defer { owned.pointee.isDelivering = false }
    guard let pinned = owned.pointee.pinned else { return reactorGone() }
    let next = reduce(pinned, state, mutation)
    owned.pointee.accumulator = next
    if let stateInput = config.pointee.stateInput {
      stateInput.on(.next(next))
    } else {
      publish(next)
    }
  }

  /// Records `state` as the current state, then delivers it to subscribers (owner thread).
  @inlinable
  func publish(_ state: State) {
    lock.lock()
    let previous = shared.pointee.current.take()
    shared.pointee.current = state
    guard config.pointee.ownsOutput else {
      lock.unlock()
      // The previous state is released after the lock: its deinitialisers are user code.
      withExtendedLifetime(previous) {}
      config.pointee.replayOutput?.on(.next(state))
      return
    }
    let first = shared.pointee.firstObserver
    // Not copied when empty (most reactors): retaining even the empty array costs.
    let others = shared.pointee.otherObservers.isEmpty ? nil : shared.pointee.otherObservers
    lock.unlock()
    withExtendedLifetime(previous) {}
    deliverToObservers(.next(state), first, others)
  }

  @inlinable
  func endMutations() {
    lock.lock()
    let alreadyEnded = shared.pointee.mutationsEnded
    shared.pointee.mutationsEnded = true
    lock.unlock()
    guard !alreadyEnded else { return }
    if let mutationInput = config.pointee.mutationInput {
      mutationInput.on(.completed)
    } else {
      endStates()
    }
  }

  /// Ends the state stream. May be called on any thread (by the last `mutate` result to
  /// finish); the end of a stream the core publishes itself is delivered by the owner.
  @inlinable
  func endStates() {
    if let stateInput = config.pointee.stateInput {
      stateInput.on(.completed)
    } else if config.pointee.ownsOutput {
      if enqueueUnlessInline(.endOfStates, urgent: true) { completeOwnOutput() }
    } else {
      config.pointee.replayOutput?.on(.completed)
    }
  }

  // MARK: - Disposal

  @inlinable
  func reactorGone() {
    dispose()
    onReactorGone()
  }

  /// Stops the core: queued work is dropped, running `mutate` results and transformed streams
  /// are disposed. Subscribers of the output keep the last state but receive nothing more.
  ///
  /// Inlinable, so that it is specialised where it is called (``teardown`` and the engine):
  /// unspecialised, every generic type it touches costs a metadata lookup.
  @inlinable
  func dispose() {
    lock.lock()
    guard !shared.pointee.isDisposed else {
      lock.unlock()
      return
    }
    shared.pointee.isDisposed = true
    gate.bitwiseOr(Gate.closed, ordering: .acquiringAndReleasing)
    // Taken whole: what it holds is released or disposed after the lock.
    let rare = shared.pointee.rareStorage.take()
    var mutationQueue = shared.pointee.mutationQueue
    let dropped = (
      shared.pointee.actionQueue, shared.pointee.firstObserver.take(),
      shared.pointee.otherObservers
    )
    shared.pointee.actionQueue = Queue()
    shared.pointee.mutationQueue = Queue()
    shared.pointee.otherObservers = []
    // Subscribers of the state stream still waiting for the owner get the last state.
    let current = shared.pointee.outputEnded ? nil : shared.pointee.current
    lock.unlock()
    while let item = mutationQueue.popFirst() {
      if case .addObserver(let entry) = item, let current { entry.deliver(.next(current)) }
    }
    withExtendedLifetime(dropped) {}
    guard let rare else { return }
    for inner in rare.inners.values { inner.subscription.dispose() }
    for subscription in rare.subscriptions { subscription.dispose() }
  }

  // MARK: - Inner subscriptions

  /// Receives the mutations of one `mutate` result that could not be consumed synchronously.
  @usableFromInline
  final class InnerMutationObserver: ObserverType, @unchecked Sendable {
    // Safety: `core` is immutable and thread-safe; `subscription` synchronises itself;
    // `isStopped` is only touched by the serial event delivery of one subscription.
    @usableFromInline let core: ReactorCore
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline var isStopped = false

    @inlinable
    init(core: ReactorCore) {
      self.core = core
    }

    @inlinable
    func on(_ event: Event<Mutation>) {
      guard !isStopped else { return }
      switch event {
      case .next(let mutation):
        core.receiveInner(mutation)
      case .error, .completed:
        isStopped = true
        core.innerFinished(self)
      }
    }
  }

  // MARK: - State stream subscribers

  /// One subscriber of the state stream when the core publishes states itself (see
  /// ``subscribeOutput(_:)``). Disposing it unregisters it; once `dispose()` returns, no
  /// further state starts to be delivered to it, except one already being delivered on
  /// another thread.
  ///
  /// It keeps the core alive (a retained reference in ``coreBits``) until it is disposed or
  /// freed, so `dispose()` is safe however long it outlives the reactor. That is no lasting
  /// cycle: the core lets go of its subscribers when the stream ends or the reactor is gone.
  @usableFromInline
  final class OutputObserver: Disposable, @unchecked Sendable {
    // Safety: `coreBits` is atomic; `observer` is immutable; the core synchronises itself.
    @usableFromInline let observer: AnyObserver<State>
    /// The core, retained (`Unmanaged.passRetained`), until the subscriber is disposed; `0`
    /// after, which also stops delivery.
    @usableFromInline let coreBits: Atomic<UInt>

    @inlinable
    init(_ observer: AnyObserver<State>, core: ReactorCore) {
      self.observer = observer
      coreBits = Atomic(UInt(bitPattern: Unmanaged.passRetained(core).toOpaque()))
      Resources.incrementTotal()
    }

    deinit {
      if let pointer = UnsafeRawPointer(bitPattern: coreBits.load(ordering: .acquiring)) {
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
      }
      Resources.decrementTotal()
    }

    @inlinable
    func deliver(_ event: Event<State>) {
      if coreBits.load(ordering: .acquiring) != 0 { observer.on(event) }
    }

    @usableFromInline
    func dispose() {
      let bits = coreBits.exchange(0, ordering: .acquiringAndReleasing)
      guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
      let core = Unmanaged<ReactorCore>.fromOpaque(pointer).takeRetainedValue()
      core.teardown(core, .removeObserver(self))
    }
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
