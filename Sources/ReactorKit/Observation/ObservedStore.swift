import Observation
import ReactorKitStreams

/// A store's state, or a part of it, as an observable model for SwiftUI and the Observation
/// framework.
///
/// Read the state through the model as if it were the model's own properties (`model.todos`
/// reads `state.todos`), and dispatch actions with ``dispatch(_:)``. The model conforms to
/// `Observation.Observable`, so a SwiftUI view that reads `model.todos` in its `body` is
/// updated when `todos` changes, and only then.
///
/// ```swift
/// struct TodoListView: View {
///   @State private var model = appStore.observed(\.todoList)
///
///   var body: some View {
///     List(model.todos) { todo in Text(todo.title) }
///   }
/// }
/// ```
///
/// Create one with ``init(_:)`` for the whole state or with `store.observed(\.path)` for the
/// value at a key path. A property counts as changed when its new value differs by `==` (for
/// `Equatable` values), when it was assigned (for a ``Pulse``), and on every new state
/// otherwise. Properties are tracked from the first time they are read through the model.
///
/// - Complexity: Each new state costs one comparison per tracked property.
///
/// ## Threading
///
/// The model belongs to the main actor. States the store publishes on the main thread (a
/// ``dispatch(_:)`` from the main thread while the store is idle) are applied at once, so the
/// model is up to date when `dispatch` returns, even while a state from another thread waits
/// for the main queue; only a dispatch from an observer during an update is applied after
/// that update. States published on other threads are applied
/// on the main queue; when several arrive before the main queue runs, the model skips to the
/// latest. The model never shows an older state after a newer one.
///
/// ## Lifetime
///
/// The model holds the store strongly; the store does not hold the model. Releasing the model
/// ends its subscription to the store.
@MainActor
@dynamicMemberLookup
public final class ObservedStore<State> {
  @usableFromInline let observed: ObservedState<State>
  @usableFromInline let dispatchAction: (any Action) -> Void
  @usableFromInline let disposeBag = DisposeBag()

  /// Creates a model of the whole state of `store` and starts following it.
  ///
  /// - Parameter store: The store; the model keeps it alive.
  @inlinable
  public convenience init(_ store: Store<State>) {
    self.init(states: store.state, current: store.currentState, dispatch: store.dispatch)
  }

  /// Creates a model that follows `states`, starting with `current`, and dispatches with
  /// `dispatch`.
  @inlinable
  init(
    states: ReactorKitStreams.Observable<State>, current: State,
    dispatch: @escaping (any Action) -> Void
  ) {
    observed = ObservedState(current)
    dispatchAction = dispatch
    observed.follow(states).disposed(by: disposeBag)
  }

  /// A model of a list's element, `current` now and then each element `states` publishes
  /// (skipping the `nil` of its removal), or `nil` when there is no element now: the shared
  /// body of ``Store/observed(_:id:)`` and ``ScopedStore/observed(_:id:)``.
  @inlinable
  static func element(
    _ current: State?, _ states: @autoclosure () -> ReactorKitStreams.Observable<State?>,
    _ dispatch: @escaping (any Action) -> Void
  ) -> ObservedStore? {
    guard let current else { return nil }
    return ObservedStore(states: states().compactMap { $0 }, current: current, dispatch: dispatch)
  }

  /// A model of the value at `path` of a root state (`current` now), which is not
  /// `Equatable`: `select` publishes it after every reduction, and the model compares the
  /// properties read through it. The body of the non-`Equatable` `observed(_:)` of ``Store``
  /// and of ``ScopedStore``.
  @inlinable
  static func everyValue<Root>(
    at path: KeyPath<Root, State>, of current: Root,
    select: (
      @escaping (Root) -> State, _ isDuplicate: @escaping (State, State) -> Bool
    ) -> ReactorKitStreams.Observable<State>,
    _ dispatch: @escaping (any Action) -> Void
  ) -> ObservedStore {
    ObservedStore(
      states: select({ $0[keyPath: path] }, { _, _ in false }), current: current[keyPath: path],
      dispatch: dispatch)
  }

  /// The current state (or part of it), as last applied on the main actor.
  ///
  /// Reading the whole state makes an observer depend on all of it: any change of an
  /// `Equatable` state, or any new state otherwise, invalidates it. Prefer reading single
  /// properties.
  @inlinable
  public var state: State {
    observed.read(observed.wholeState)
  }

  /// The value at `path` of the current state, tracked as a property of the model.
  @inlinable
  public subscript<Value>(dynamicMember path: KeyPath<State, Value>) -> Value {
    observed.read(path)
  }

  /// The value at `path` of the current state, tracked as a property of the model that
  /// changes when the new value differs by `==`.
  @inlinable
  public subscript<Value: Equatable>(dynamicMember path: KeyPath<State, Value>) -> Value {
    observed.read(path)
  }

  /// Dispatches `action` to the store.
  ///
  /// - Parameter action: The action; dispatched as described by ``Store/dispatch(_:)->()``.
  @inlinable
  public func dispatch(_ action: any Action) {
    dispatchAction(action)
  }
}

extension ObservedStore: Observation.Observable {}

extension Store {
  /// An observable model of the value at `path`, for SwiftUI and the Observation framework.
  ///
  /// The model is told about a new value only when the value at `path` changes (by `==`),
  /// evaluated once per reduction and shared with every other observer of the same key path
  /// (see ``slice(_:)``). Its ``ObservedStore/dispatch(_:)`` dispatches to this store.
  ///
  /// - Parameter path: The part of the state to observe.
  /// - Returns: A model that holds this store.
  @MainActor
  @inlinable
  public func observed<Value: Equatable>(_ path: KeyPath<State, Value>) -> ObservedStore<Value> {
    ObservedStore(
      states: slice(path), current: currentState[keyPath: path], dispatch: dispatch)
  }

  /// An observable model of the value at `path`, for SwiftUI and the Observation framework.
  ///
  /// `Value` is not `Equatable`, so the model receives the value after every reduction and
  /// compares the properties read through it (see ``ObservedStore``). Its
  /// ``ObservedStore/dispatch(_:)`` dispatches to this store.
  ///
  /// - Parameter path: The part of the state to observe.
  /// - Returns: A model that holds this store.
  @MainActor
  @inlinable
  public func observed<Value>(_ path: KeyPath<State, Value>) -> ObservedStore<Value> {
    ObservedStore.everyValue(at: path, of: currentState, select: select, dispatch)
  }

  /// An observable model of the whole state, for SwiftUI and the Observation framework; the
  /// same as ``ObservedStore/init(_:)``.
  ///
  /// - Returns: A model that holds this store.
  @MainActor
  @inlinable
  public func observed() -> ObservedStore<State> {
    ObservedStore(self)
  }
}

extension ObservedStore {
  /// Calls `handler` after each new state that changes properties read through the model, with
  /// those properties' key paths (`\\TodoState.title`): the views that read them are the ones
  /// that update, so this answers "why did this view update?". The whole state read as
  /// `model.state` shows as `\\.self`.
  ///
  /// Off until called; replaces an earlier handler; `nil` stops. Called on the main actor, after
  /// the model shows the new state.
  ///
  /// - Parameter handler: Receives the changed properties' key paths, in the order they were
  ///   first read through the model.
  public func explainChanges(_ handler: (@MainActor ([PartialKeyPath<State>]) -> Void)?) {
    observed.explainChanges(
      handler.map { handler in
        { paths in MainActor.assumeIsolated { handler(paths) } }
      })
  }
}
