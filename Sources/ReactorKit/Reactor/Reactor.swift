/// A UI-independent object that owns the state of one view (or feature) and changes it only
/// in response to actions.
///
/// A view sends ``Action`` values to ``action``. For each action the reactor produces zero or
/// more ``Mutation``s in ``mutate(action:)`` (side effects live there), folds each mutation
/// into a new ``State`` in the pure ``reduce(state:mutation:)``, and publishes the states on
/// ``state``. The full pipeline per action is
///
/// `transform(action:)` → `mutate(action:)` → `transform(mutation:)` →
/// `reduce(state:mutation:)` → `transform(state:)`
///
/// A conforming class declares only `Action`, `Mutation`, `State`, ``initialState`` and the
/// methods it customises; ReactorKit keeps the streams for it and releases them with the
/// reactor:
///
/// ```swift
/// final class CounterReactor: Reactor {
///   enum Action { case increase }
///   enum Mutation { case increaseValue }
///   struct State { var value = 0 }
///
///   let initialState = State()
///
///   func mutate(action: Action) -> Observable<Mutation> {
///     switch action {
///     case .increase: return .just(.increaseValue)
///     }
///   }
///
///   func reduce(state: State, mutation: Mutation) -> State {
///     var state = state
///     switch mutation {
///     case .increaseValue: state.value += 1
///     }
///     return state
///   }
/// }
/// ```
///
/// The streams are created the first time ``action`` or ``state`` is read. ``state`` starts
/// with the (transformed) initial state, replays the latest state to every new subscriber and
/// doesn't fail: errors and completion of `mutate` results and of sources bound to ``action``
/// are ignored (only an error in the sequence of ``transform(state:)`` reaches it; see
/// <doc:FailuresAndFaults>). ``currentState`` is updated before subscribers see a state. A
/// reactor whose `Action` and `Mutation` are the same type needs no `mutate`.
///
/// This is the ReactorKit 3.x API: reactors written for ReactorKit on RxSwift compile by
/// changing their imports.
public protocol Reactor: AnyObject {
  /// What the view asks for: user input and view events.
  associatedtype Action

  /// A change to apply to the state. Defaults to ``Action``.
  associatedtype Mutation = Action

  /// What the view renders.
  associatedtype State

  /// The scheduler type of ``scheduler``.
  typealias Scheduler = ImmediateSchedulerType

  /// The input of the reactor: bind user input to it, or call `onNext(_:)`.
  ///
  /// Only `.next` events pass; `.error` and `.completed` from bound sources are ignored, so a
  /// failing source never stops the reactor.
  ///
  /// ## Threading
  ///
  /// `onNext(_:)` may be called from any thread, concurrently. Actions are processed one at a
  /// time, each exactly once, in the order the reactor received them, on ``scheduler``:
  /// `mutate(action:)` and `reduce(state:mutation:)` never run concurrently for one reactor.
  /// With the default `CurrentThreadScheduler`, the thread that sends an action while the
  /// reactor is idle processes it before `onNext` returns; an action sent while another
  /// thread is processing is queued and processed by that thread, and `onNext` returns at
  /// once.
  ///
  /// Reentrancy is queued, never recursive: an action sent from `reduce(state:mutation:)`,
  /// from `transform(state:)` or from a state subscriber runs after the current action has
  /// been fully processed, in the order sent. Mutations that `mutate(action:)` emits
  /// synchronously are reduced at once, so `currentState` is up to date for the next one.
  var action: ActionSubject<Action> { get }

  /// The state before any action.
  var initialState: State { get }

  /// The latest state, updated just before subscribers of ``state`` see it. Before the
  /// streams exist it is ``initialState``.
  var currentState: State { get }

  /// The state stream: the latest state first, then every new one.
  ///
  /// Shared by all subscribers and replayed to late ones, even after every subscriber has
  /// left. Reading it (or ``action``) the first time creates the streams, exactly once even
  /// when several threads do so at the same moment.
  var state: Observable<State> { get }

  /// Where actions are processed and states reduced and delivered. Defaults to
  /// `CurrentThreadScheduler.instance`.
  var scheduler: Scheduler { get }

  /// Transforms the action stream, for example to merge other sources of actions. Called
  /// once, when the streams are created. The default returns `action` itself.
  ///
  /// - Parameter action: The actions sent to ``action``, delivered on ``scheduler``.
  /// - Returns: The actions to run `mutate(action:)` for.
  func transform(action: Observable<Action>) -> Observable<Action>

  /// Produces the mutations for one action; the place for side effects such as network
  /// requests. Errors and completion of the returned sequence are ignored.
  ///
  /// - Parameter action: An action from the transformed action stream.
  /// - Returns: The mutations to reduce.
  func mutate(action: Action) -> Observable<Mutation>

  /// Transforms the mutation stream, for example to merge mutations from global state.
  /// Called once, when the streams are created. The default returns `mutation` itself.
  ///
  /// An error or completion of the returned sequence ends ``state``: its subscribers receive
  /// `completed`, never the error, and ``currentState`` keeps the last state.
  ///
  /// - Parameter mutation: The mutations produced by `mutate(action:)`.
  /// - Returns: The mutations to reduce.
  func transform(mutation: Observable<Mutation>) -> Observable<Mutation>

  /// Computes the next state. Keep it pure: no side effects.
  ///
  /// It can't throw: turn failures into mutations in `mutate(action:)`. A `reduce` that traps
  /// stops the program; the reactor doesn't catch it.
  ///
  /// - Parameters:
  ///   - state: The previous state.
  ///   - mutation: The mutation to apply.
  /// - Returns: The new state.
  func reduce(state: State, mutation: Mutation) -> State

  /// Transforms the state stream, for example for logging. Called once, when the streams are
  /// created. The default returns `state` itself.
  ///
  /// An error in the returned sequence reaches the subscribers of ``state`` (as in
  /// ReactorKit): catch errors inside the transform.
  ///
  /// - Parameter state: The reduced states, starting with ``initialState``.
  /// - Returns: The states published on ``state``, which also become ``currentState``.
  func transform(state: Observable<State>) -> Observable<State>
}

// MARK: - Default implementations

extension Reactor {
  /// The reactor's engine, created on first use (see ``ReactorCore``).
  @inlinable
  var engine: ReactorCore<Action, Mutation, State> {
    ReactorCore.of(self)
  }

  /// The reactor's action subject, or the stub's when ``isStubEnabled`` is `true`.
  @inlinable
  public var action: ActionSubject<Action> {
    let storage = engine
    if storage.isStubEnabled {
      return storage.stubRecorder(initialState: { initialState }).action
    }
    storage.ensureWired(wireReactor)
    return storage.action
  }

  /// The latest state; the stub's state when ``isStubEnabled`` is `true`.
  @inlinable
  public var currentState: State {
    let storage = engine
    if storage.isStubEnabled {
      return storage.stubRecorder(initialState: { initialState }).state.value
    }
    if let current = storage.currentState { return current }
    return storage.currentState(orStore: initialState)
  }

  /// The reactor's state stream; the stub's when ``isStubEnabled`` is `true`.
  @inlinable
  public var state: Observable<State> {
    let storage = engine
    if storage.isStubEnabled {
      return storage.stubRecorder(initialState: { initialState }).state.asObservable()
    }
    storage.ensureWired(wireReactor)
    return storage.state
  }

  /// `CurrentThreadScheduler.instance`.
  @inlinable
  public var scheduler: Scheduler {
    CurrentThreadScheduler.instance
  }

  /// Returns `action` unchanged.
  @inlinable
  public func transform(action: Observable<Action>) -> Observable<Action> {
    action
  }

  /// Returns an empty sequence: no mutations.
  @inlinable
  public func mutate(action: Action) -> Observable<Mutation> {
    .empty()
  }

  /// Returns `mutation` unchanged.
  @inlinable
  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    mutation
  }

  /// Returns `state` unchanged.
  @inlinable
  public func reduce(state: State, mutation: Mutation) -> State {
    state
  }

  /// Returns `state` unchanged.
  @inlinable
  public func transform(state: Observable<State>) -> Observable<State> {
    state
  }

  /// Builds this reactor's pipeline into `core`.
  @inlinable
  func wireReactor(_ core: ReactorCore<Action, Mutation, State>) {
    core.wire(
      initialState: initialState,
      scheduler: scheduler,
      transformAction: { transform(action: $0) },
      transformMutation: { transform(mutation: $0) },
      transformState: { transform(state: $0) })
  }
}

extension Reactor where Action == Mutation {
  /// Returns the action itself as the only mutation.
  @inlinable
  public func mutate(action: Action) -> Observable<Mutation> {
    .just(action)
  }
}

// MARK: - Stub

extension Reactor {
  /// Whether the reactor is replaced by its ``stub`` for view tests.
  ///
  /// While `true`, ``action`` and ``state`` are the stub's: actions are recorded in
  /// ``Stub/actions`` instead of running `mutate`/`reduce`, and ``currentState`` is the
  /// stub's ``Stub/state`` value.
  @inlinable
  public var isStubEnabled: Bool {
    get { engine.isStubEnabled }
    set { engine.isStubEnabled = newValue }
  }

  /// The reactor's stub, for testing views: set ``Stub/state`` and inspect ``Stub/actions``.
  @inlinable
  public var stub: Stub<Self> {
    engine.stub(for: self)
  }
}
