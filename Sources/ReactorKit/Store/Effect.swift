/// Work a store runs in response to an action: actions that arrive later, to dispatch, and how
/// that work may be cancelled.
///
/// An effect is returned by the closure of ``Middleware/effects(_:)``, which the store calls
/// with each action after reducing it. The store subscribes to the effect, dispatches every
/// action it emits, and owns the subscription: it ends when the effect completes, when it is
/// cancelled, or when the store is freed.
///
/// ```swift
/// enum SearchAction: Action { case query(String), results([String]), cancel }
/// enum SearchEffect: Hashable { case search }
///
/// let search = Middleware<SearchState>.effects { action, state in
///   switch action {
///   case SearchAction.query(let text):
///     return Effect(
///       api.search(text)  // an Observable<[String]>
///         .delaySubscription(.milliseconds(300), scheduler: scheduler)
///         .map { SearchAction.results($0) }
///     )
///     .cancellable(id: SearchEffect.search, cancelInFlight: true)  // the latest query wins
///   case SearchAction.cancel:
///     return .cancel(id: SearchEffect.search)
///   default:
///     return .none
///   }
/// }
/// ```
///
/// - `Effect(observable)`: an observable of actions (any `Observable`, `Single`, `Driver`…).
/// - ``send(_:)``: one action, dispatched right after the current one.
/// - ``run(priority:operation:catch:)``: Swift concurrency work that calls `send`.
/// - ``cancellable(id:cancelInFlight:)``, ``cancel(id:)``: cancellation by id; with
///   `cancelInFlight: true` a new effect cancels the running one (latest wins).
/// - ``merge(_:)-(Effect...)``: several effects at once, started in order.
///
/// An error ends the effect that failed, and nothing else; it goes to
/// `Hooks.defaultErrorHandler` (printed in debug builds) as an unhandled error. Turn errors
/// into actions with `catch` (for `run`, its `catch:` closure) to handle them.
public struct Effect: Sendable {
  @usableFromInline
  indirect enum Operation: Sendable {
    case none
    case actions(Observable<any Action>)
    case cancel(EffectID)
    case cancellable(Operation, id: EffectID, cancelInFlight: Bool)
    case merge([Operation])
  }

  @usableFromInline let operation: Operation

  @inlinable
  init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  public static var none: Effect { Effect(operation: .none) }

  /// An effect that dispatches each action `actions` emits, as it arrives, on the thread that
  /// emits it.
  ///
  /// - Parameter actions: An observable of the store's actions, such as
  ///   `api.search(text).map { SearchAction.results($0) }`.
  public init<Source: ObservableConvertibleType>(_ actions: Source)
  where Source.Element == any Action {
    operation = .actions(actions.asObservable())
  }

  /// An effect that dispatches each action `actions` emits, as it arrives, on the thread that
  /// emits it.
  ///
  /// - Parameter actions: An observable of one action type, such as
  ///   `api.search(text).map(SearchAction.results)`.
  public init<Source: ObservableConvertibleType>(_ actions: Source) where Source.Element: Action {
    operation = .actions(actions.asObservable().map { $0 as any Action })
  }

  /// An effect that dispatches `action` once, right after the action being processed (and
  /// everything queued before it).
  public static func send(_ action: any Action) -> Effect {
    Effect(operation: .actions(Observable.just(action)))
  }

  /// An effect that runs a Swift concurrency operation on the main actor; each action the
  /// operation passes to `send` is dispatched.
  ///
  /// Cancelling the effect (by id, by a newer effect with `cancelInFlight`, or by freeing the
  /// store) cancels the task; `send` ignores actions from a cancelled task. Sleep on an
  /// injected clock (`any Clock<Duration>`) so tests can replace it with a `TestClock`.
  ///
  /// ```swift
  /// .run { send in
  ///   try await clock.sleep(for: .seconds(1))
  ///   send(TimerAction.tick)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` lets the system decide.
  ///   - operation: The work; returning ends the effect.
  ///   - handler: Called with an error `operation` throws (other than the task's
  ///     cancellation), to turn it into actions; without it, the error ends the effect and
  ///     goes to `Hooks.defaultErrorHandler`.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @MainActor @Sendable (_ send: Send<any Action>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<any Action>) -> Void)? =
      nil
  ) -> Effect {
    let actions = Send<any Action>.task(priority: priority, operation: operation, catch: handler)
    return Effect(operation: .actions(actions))
  }

  /// This effect, cancellable by `id`.
  ///
  /// ``cancel(id:)`` with an equal id, or another effect made cancellable by an equal id with
  /// `cancelInFlight: true`, cancels it while it runs. Ids are per store: effects of two
  /// stores never cancel each other.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; an enum case per kind of work reads best.
  ///   - cancelInFlight: Whether starting this effect first cancels the running effects with
  ///     an equal id, so that only the latest runs ("latest wins", like `flatMapLatest`).
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    Effect(
      operation: .cancellable(operation, id: EffectID(id), cancelInFlight: cancelInFlight))
  }

  /// An effect that cancels the running effects made cancellable by an id equal to `id`.
  ///
  /// The cancelled effects' subscriptions are disposed before the next action is processed:
  /// an action they emit afterwards is not dispatched. (An action that a cancelled effect
  /// emitted on another thread while the cancellation ran may still be dispatched.)
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(operation: .cancel(EffectID(id)))
  }

  /// An effect that starts `effects`, in order, and runs them at once.
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// An effect that starts `effects`, in order, and runs them at once.
  public static func merge(_ effects: [Effect]) -> Effect {
    Effect(operation: .merge(effects.map(\.operation)))
  }
}

/// The id of a cancellable effect: any hashable, sendable value.
@usableFromInline
struct EffectID: Hashable, @unchecked Sendable {
  // Safety: made only from `Hashable & Sendable` values (see `init`), which `AnyHashable`
  // holds without exposing them for mutation.
  let value: AnyHashable

  init(_ value: some Hashable & Sendable) {
    self.value = AnyHashable(value)
  }
}

extension Middleware {
  /// A middleware that runs an effect for each action it lets through, after the action was
  /// reduced.
  ///
  /// `effect` receives the action and the state after it, and returns an ``Effect``: the
  /// store subscribes to it and dispatches the actions it emits. The store owns every running
  /// effect: effects are cancellable by id (``Effect/cancellable(id:cancelInFlight:)``,
  /// ``Effect/cancel(id:)``), end when they complete, and are disposed when the store is
  /// freed, after which nothing they emit is dispatched.
  ///
  /// ```swift
  /// let store = Store(reducer: search, state: SearchState(), middleware: [
  ///   .effects { action, state in
  ///     guard case SearchAction.query(let text) = action else { return .none }
  ///     return Effect(api.search(text).map(SearchAction.results))
  ///       .cancellable(id: SearchEffect.search, cancelInFlight: true)
  ///   }
  /// ])
  /// ```
  ///
  /// `effect` runs on the store's processing thread, one action at a time; an effect emitting
  /// synchronously (``Effect/send(_:)``) has its actions queued after the current one. Put
  /// the middleware after those that drop or change actions: it sees what it lets through.
  /// It adds nothing to a store without it.
  ///
  /// - Parameter effect: Returns the effect of an action, or ``Effect/none``.
  public static func effects(
    _ effect: @escaping @Sendable (_ action: any Action, _ state: State) -> Effect
  ) -> Middleware<State> {
    Middleware(connect: { getState, dispatch, effects in
      let runner = EffectRunner(dispatch: dispatch)
      effects.add(runner)
      return { next in
        { action in
          next(action)
          runner.start(effect(action, getState()).operation)
        }
      }
    })
  }

  /// A middleware that runs an effect for each action of type `A` it lets through, after the
  /// action was reduced; other actions have no effect.
  ///
  /// The same as ``effects(_:)`` for one action type:
  ///
  /// ```swift
  /// .effects(on: SearchAction.self) { action, state in
  ///   guard case .query(let text) = action else { return .none }
  ///   return Effect(api.search(text).map(SearchAction.results))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The action type the effects respond to.
  ///   - effect: Returns the effect of an action, or ``Effect/none``.
  public static func effects<A: Action>(
    on type: A.Type, _ effect: @escaping @Sendable (_ action: A, _ state: State) -> Effect
  ) -> Middleware<State> {
    let typed: any EffectOfAnyAction<State> = TypedEffect(effect)
    return effects { action, state in typed.run(action, state) }
  }
}

/// An effect function that takes any action.
protocol EffectOfAnyAction<State>: Sendable {
  associatedtype State
  func run(_ action: any Action, _ state: State) -> Effect
}

/// The effect of one action type, applied to any action (``Middleware/effects(on:_:)``).
///
/// Called through ``EffectOfAnyAction``, so that the `@Sendable` closure calling it captures
/// no metatype of `A`.
final class TypedEffect<A: Action, State>: EffectOfAnyAction {
  let effect: @Sendable (A, State) -> Effect

  init(_ effect: @escaping @Sendable (A, State) -> Effect) {
    self.effect = effect
  }

  func run(_ action: any Action, _ state: State) -> Effect {
    guard let action = action as? A else { return .none }
    return effect(action, state)
  }
}
