import ReactorKitStreams

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
/// `transform(state:)` → ``output``. A transform that returns its input unchanged (the
/// default) costs nothing: the core then calls the next stage directly instead of going
/// through a subject. A `mutate` result whose elements are known up front (`just`, `empty`,
/// `of`/`from` on the trampoline) is consumed without a subscription.
///
/// ## Serialisation and reentrancy
///
/// Everything that reaches the reactor is queued under ``lock`` and processed by one thread at
/// a time, the *owner*, which drains the queue on the reactor's scheduler. While the owner
/// runs `mutate` (or the action transform), mutations that the returned sequence emits
/// synchronously are reduced at once, so `currentState` is up to date for the next one. Work
/// that arrives while the owner is reducing or delivering a state (an action sent from
/// `reduce` or from a state subscriber) or from another thread is queued and runs after the
/// current step: never recursively, never concurrently. Mutations are queued ahead of
/// actions, so an action never overtakes a mutation that was already produced.
///
/// ## Lifetime
///
/// The core keeps its reactor weakly. ``dispose()`` (called once the reactor is gone) stops
/// the queue and disposes every subscription it holds.
final class ReactorCore<Action, Mutation, State>: @unchecked Sendable {
  // Safety: the queue, the flags, the subscriptions, `baseHooks` and `installedHooks` are
  // guarded by `lock`; `current` by `stateLock`. The pipeline (`hooks`, inputs, `scheduler`)
  // is written once in `wire` before `isWired` is set under `lock`, and read only after
  // observing `isWired` under `lock`; afterwards `hooks` is rewritten only by the owner thread
  // (when it processes `.reconfigure`). `accumulator` and `isDelivering` belong to the owner
  // thread, and ownership passes from thread to thread through `lock`.

  /// What the core calls on its reactor; each hook returns `nil` once the reactor is gone.
  struct Hooks {
    let mutate: (Action) -> Observable<Mutation>?
    let reduce: (State, Mutation) -> State?
  }

  private enum Item {
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
    /// The installed ``ReactorHook``s changed: rebuild `hooks`.
    case reconfigure
  }

  private let lock = Lock()
  private var actionQueue = FIFOQueue<Item>()
  private var mutationQueue = FIFOQueue<Item>()
  private var isDrainScheduled = false
  private var owner: pthread_t?
  private var isWired = false
  private var isDisposed = false
  private var inners: [ObjectIdentifier: InnerMutationObserver] = [:]
  private var actionsEnded = false
  private var mutationsEnded = false
  private var subscriptions: [Disposable] = []

  private var hooks: Hooks?
  private var baseHooks: Hooks?
  private var installedHooks: [(id: UInt64, hook: ReactorHook<Action, Mutation, State>)] = []
  private var nextHookID: UInt64 = 0
  private var scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  private var actionInput: PublishSubject<Action>?
  private var mutationInput: PublishSubject<Mutation>?
  private var stateInput: BehaviorSubject<State>?

  private var accumulator: State?
  private var isDelivering = false

  private let stateLock = Lock()
  private var current: State?

  /// The public state stream: the latest state is replayed to every new subscriber.
  let output = ReplaySubject<State>.create(bufferSize: 1)

  /// Called when the core finds its reactor gone while processing.
  var onReactorGone: (() -> Void)?

  init() {}

  // MARK: - Current state

  /// The latest published state, or `nil` before the first one.
  var currentState: State? {
    stateLock.lock()
    defer { stateLock.unlock() }
    return current
  }

  /// Returns the current state, storing `initial` first if there is none yet.
  func currentState(orStore initial: State) -> State {
    stateLock.lock()
    defer { stateLock.unlock() }
    if let current { return current }
    current = initial
    return initial
  }

  // MARK: - Wiring

  /// Builds the pipeline. Called once, by the thread that created the streams, with no lock
  /// held: it runs the reactor's transforms.
  ///
  /// - Parameters:
  ///   - initialState: The reactor's initial state.
  ///   - scheduler: Where the queue is drained.
  ///   - hooks: `mutate` and `reduce`.
  ///   - transformAction: The reactor's `transform(action:)`.
  ///   - transformMutation: The reactor's `transform(mutation:)`.
  ///   - transformState: The reactor's `transform(state:)`.
  func wire(
    initialState: State,
    scheduler: ImmediateSchedulerType,
    hooks: Hooks,
    transformAction: (Observable<Action>) -> Observable<Action>,
    transformMutation: (Observable<Mutation>) -> Observable<Mutation>,
    transformState: (Observable<State>) -> Observable<State>
  ) {
    let actionInput = PublishSubject<Action>()
    let transformedAction = transformAction(actionInput)
    let mutationInput = PublishSubject<Mutation>()
    let transformedMutation = transformMutation(mutationInput)
    let stateInput = BehaviorSubject(value: initialState)
    let transformedState = transformState(stateInput)

    let actionIsIdentity = transformedAction === actionInput
    let mutationIsIdentity = transformedMutation === mutationInput
    let stateIsIdentity = transformedState === stateInput

    lock.lock()
    self.baseHooks = hooks
    self.hooks = Self.compose(hooks, installedHooks.map(\.hook))
    self.scheduler = scheduler
    self.actionInput = actionIsIdentity ? nil : actionInput
    self.mutationInput = mutationIsIdentity ? nil : mutationInput
    self.stateInput = stateIsIdentity ? nil : stateInput
    self.accumulator = initialState
    lock.unlock()

    // States first, so the initial state is published before anything a transformed stream
    // emits while it is being subscribed.
    if stateIsIdentity {
      publish(initialState)
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
    isWired = true
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
  }

  private func keep(_ subscription: Disposable) {
    lock.lock()
    if isDisposed {
      lock.unlock()
      subscription.dispose()
      return
    }
    subscriptions.append(subscription)
    lock.unlock()
  }

  // MARK: - Entry points

  /// Queues an action from the action subject. Thread-safe; returns at once when another
  /// thread (or an outer frame of this one) is processing.
  func receive(_ action: Action) {
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return
    }
    actionQueue.append(.action(action))
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
  }

  private func receiveTransformedAction(_ event: Event<Action>) {
    switch event {
    case .next(let action):
      if enqueueUnlessInline(.transformedAction(action), urgent: false) { run(action) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfActions, urgent: false, allowInline: false)
    }
  }

  fileprivate func receiveInner(_ mutation: Mutation) {
    if enqueueUnlessInline(.innerMutation(mutation), urgent: true) { emit(mutation) }
  }

  private func receiveTransformedMutation(_ event: Event<Mutation>) {
    switch event {
    case .next(let mutation):
      if enqueueUnlessInline(.mutation(mutation), urgent: true) { apply(mutation) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfMutations, urgent: true, allowInline: false)
    }
  }

  private func receiveTransformedState(_ event: Event<State>) {
    switch event {
    case .next(let state): publish(state)
    case .error, .completed: output.on(event)
    }
  }

  /// Queues `item`, unless the caller is the owner thread outside of a state delivery, in
  /// which case it returns `true` and the caller processes the item at once.
  private func enqueueUnlessInline(_ item: Item, urgent: Bool, allowInline: Bool = true) -> Bool {
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return false
    }
    // `isDelivering` belongs to the owner, so it is read only once the caller is known to be
    // the owner.
    if allowInline, let owner, pthread_equal(owner, pthread_self()) != 0, !isDelivering {
      lock.unlock()
      return true
    }
    if urgent {
      mutationQueue.append(item)
    } else {
      actionQueue.append(item)
    }
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
    return false
  }

  // MARK: - Draining

  private func scheduleDrainIfNeededLocked() -> Bool {
    guard isWired, !isDrainScheduled, !isDisposed else { return false }
    guard !actionQueue.isEmpty || !mutationQueue.isEmpty else { return false }
    isDrainScheduled = true
    return true
  }

  private func scheduleDrain() {
    _ = scheduler.schedule(self) { core in
      core.drain()
      return Disposables.create()
    }
  }

  private func drain() {
    lock.lock()
    owner = pthread_self()
    while !isDisposed, let item = mutationQueue.popFirst() ?? actionQueue.popFirst() {
      lock.unlock()
      process(item)
      lock.lock()
    }
    owner = nil
    isDrainScheduled = false
    lock.unlock()
  }

  private func process(_ item: Item) {
    switch item {
    case .action(let action):
      if let actionInput {
        actionInput.on(.next(action))
      } else {
        run(action)
      }
    case .transformedAction(let action):
      run(action)
    case .endOfActions:
      lock.lock()
      actionsEnded = true
      let ended = inners.isEmpty
      lock.unlock()
      if ended { endMutations() }
    case .innerMutation(let mutation):
      emit(mutation)
    case .mutation(let mutation):
      apply(mutation)
    case .endOfMutations:
      endStates()
    case .reconfigure:
      lock.lock()
      let base = baseHooks
      let installed = installedHooks.map(\.hook)
      lock.unlock()
      if let base { hooks = Self.compose(base, installed) }
    }
  }

  // MARK: - Hooks

  /// Installs `hook`; it takes effect when the owner processes the queued `.reconfigure`.
  func addHook(_ hook: ReactorHook<Action, Mutation, State>) -> Disposable {
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return Disposables.create()
    }
    let id = nextHookID
    nextHookID += 1
    installedHooks.append((id, hook))
    mutationQueue.append(.reconfigure)
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    if schedule { scheduleDrain() }
    return Disposables.create { [weak self] in self?.removeHook(id) }
  }

  private func removeHook(_ id: UInt64) {
    lock.lock()
    guard !isDisposed, let index = installedHooks.firstIndex(where: { $0.id == id }) else {
      lock.unlock()
      return
    }
    let removed = installedHooks.remove(at: index)
    mutationQueue.append(.reconfigure)
    let schedule = scheduleDrainIfNeededLocked()
    lock.unlock()
    withExtendedLifetime(removed) {}
    if schedule { scheduleDrain() }
  }

  /// `base` wrapped in `installed`, the first one outermost. A stage reports the reactor gone
  /// (`nil`) when `base` did, whatever the hooks returned.
  private static func compose(_ base: Hooks, _ installed: [ReactorHook<Action, Mutation, State>])
    -> Hooks
  {
    var mutate = base.mutate
    var reduce = base.reduce
    for hook in installed.reversed() {
      if let wrap = hook.mutate {
        let inner = mutate
        mutate = { action in
          var isGone = false
          let result = wrap(action) { action in
            if let mutations = inner(action) { return mutations }
            isGone = true
            return .empty()
          }
          return isGone ? nil : result
        }
      }
      if let wrap = hook.reduce {
        let inner = reduce
        reduce = { state, mutation in
          var isGone = false
          let result = wrap(state, mutation) { state, mutation in
            if let next = inner(state, mutation) { return next }
            isGone = true
            return state
          }
          return isGone ? nil : result
        }
      }
    }
    return Hooks(mutate: mutate, reduce: reduce)
  }

  // MARK: - Stages

  /// Runs `mutate` for `action` and feeds what it returns into the mutation stage.
  private func run(_ action: Action) {
    guard let mutations = hooks?.mutate(action) else { return reactorGone() }
    if mutations.forEachSynchronousElement({ emit($0) }) { return }
    let inner = InnerMutationObserver(core: self)
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return
    }
    inners[ObjectIdentifier(inner)] = inner
    lock.unlock()
    inner.subscription.setDisposable(mutations.subscribe(inner))
  }

  fileprivate func innerFinished(_ inner: InnerMutationObserver) {
    lock.lock()
    let removed = inners.removeValue(forKey: ObjectIdentifier(inner)) != nil
    let ended = removed && actionsEnded && inners.isEmpty
    lock.unlock()
    inner.subscription.dispose()
    if ended { endMutations() }
  }

  /// Feeds a mutation into `transform(mutation:)`, or straight into `reduce`.
  private func emit(_ mutation: Mutation) {
    if let mutationInput {
      mutationInput.on(.next(mutation))
    } else {
      apply(mutation)
    }
  }

  /// Reduces a mutation and sends the new state on (on the owner thread).
  private func apply(_ mutation: Mutation) {
    guard let state = accumulator else { return }
    isDelivering = true
    defer { isDelivering = false }
    guard let next = hooks?.reduce(state, mutation) else { return reactorGone() }
    accumulator = next
    if let stateInput {
      stateInput.on(.next(next))
    } else {
      publish(next)
    }
  }

  /// Records `state` as the current state, then delivers it to subscribers.
  private func publish(_ state: State) {
    stateLock.lock()
    current = state
    stateLock.unlock()
    output.on(.next(state))
  }

  private func endMutations() {
    lock.lock()
    let alreadyEnded = mutationsEnded
    mutationsEnded = true
    lock.unlock()
    guard !alreadyEnded else { return }
    if let mutationInput {
      mutationInput.on(.completed)
    } else {
      endStates()
    }
  }

  private func endStates() {
    if let stateInput {
      stateInput.on(.completed)
    } else {
      output.on(.completed)
    }
  }

  // MARK: - Disposal

  private func reactorGone() {
    dispose()
    onReactorGone?()
  }

  /// Stops the core: queued work is dropped, running `mutate` results and transformed streams
  /// are disposed. Subscribers of ``output`` keep the last state but receive nothing more.
  func dispose() {
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return
    }
    isDisposed = true
    let running = Array(inners.values)
    inners = [:]
    let subscriptions = self.subscriptions
    self.subscriptions = []
    let hooks = installedHooks
    installedHooks = []
    actionQueue = FIFOQueue()
    mutationQueue = FIFOQueue()
    lock.unlock()
    for inner in running { inner.subscription.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(hooks) {}
  }

  // MARK: - Inner subscriptions

  /// Receives the mutations of one `mutate` result that could not be consumed synchronously.
  fileprivate final class InnerMutationObserver: ObserverType, @unchecked Sendable {
    // Safety: `core` is immutable and thread-safe; `subscription` synchronises itself;
    // events arrive serially per the observer contract.
    let core: ReactorCore
    let subscription = SingleAssignmentDisposable()
    private var isStopped = false

    init(core: ReactorCore) {
      self.core = core
    }

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
}

/// A first-in first-out queue with amortised O(1) append and removal; removed elements are
/// released at once.
struct FIFOQueue<Element> {
  private var storage: [Element?] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }

  mutating func append(_ element: Element) {
    storage.append(element)
  }

  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: storage.count <= 32)
      head = 0
    } else if head > 32 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }
}
