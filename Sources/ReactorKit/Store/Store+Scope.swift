import ReactorKitStreams

extension Store {
  /// A handle on the part of the state at `path`, for a feature that should not see the
  /// whole app state.
  ///
  /// The handle reads, observes and slices the child state, and dispatches to this store:
  ///
  /// ```swift
  /// // The app's composition root:
  /// let todos = TodoListScreen(store: appStore.scope(\.todoList))
  ///
  /// // The feature module knows TodoListState and its actions, not AppState:
  /// final class TodoListScreen {
  ///   init(store: ScopedStore<TodoListState>) {
  ///     store.slice(\.items).subscribe(onNext: render).disposed(by: disposeBag)
  ///     store.dispatch(TodoListAction.load)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter path: Where the child state lives in this store's state.
  /// - Returns: A handle that holds this store.
  public func scope<Child>(_ path: KeyPath<State, Child>) -> ScopedStore<Child> {
    ScopedStore(
      root: self, path: path, state: select({ $0[keyPath: path] }, isDuplicate: { _, _ in false }))
  }

  /// A handle on the part of the state at `path`, for a feature that should not see the
  /// whole app state; its ``ScopedStore/state`` emits only when the child state changes.
  ///
  /// See `scope(_:)`.
  public func scope<Child: Equatable>(_ path: KeyPath<State, Child>) -> ScopedStore<Child> {
    ScopedStore(root: self, path: path, state: slice(path))
  }
}

/// A handle on part of a store's state: its own current state, state stream, slices and
/// selections, and a `dispatch` that dispatches to the store.
///
/// Made by `Store.scope(_:)` (or `ScopedStore.scope(_:)` for a part of a part), so a
/// feature module works with its own state type and never sees the app state:
///
/// ```swift
/// let session: ScopedStore<SessionState> = appStore.scope(\.session)
/// session.currentState.user          // reads appStore.currentState.session.user
/// session.slice(\.user)              // shares appStore.slice(\.session.user)
/// session.dispatch(SessionAction.logOut)   // dispatched to appStore
/// ```
///
/// ## Dispatching
///
/// Actions are not scoped: `dispatch(_:)` dispatches to the root store, through
/// all of its middleware and its whole reducer, exactly as `store.dispatch` does (same
/// ordering and threading contract). The feature's reducer sees the action because the app
/// lifted it into the root reducer (`featureReducer.lift(\.feature)`); any other reducer may
/// react to it too, as in Redux.
///
/// ## Sharing
///
/// A slice of a scope is a slice of the root store at the joined key path:
/// `appStore.scope(\.session).slice(\.user)` shares one evaluation per reduction with
/// `appStore.slice(\.session.user)`.
///
/// A scoped store is a small value; copy it freely. It holds the root store strongly, as the
/// store's observables do.
public struct ScopedStore<State>: @unchecked Sendable {
  // Safety: every property is immutable: the root store (`Sendable`), a key path (an
  // immutable object) and the root store's observable (immutable, holding the store).
  let root: any ScopeRoot
  let path: AnyKeyPath
  let stateStream: Observable<State>

  init(root: any ScopeRoot, path: AnyKeyPath, state: Observable<State>) {
    self.root = root
    self.path = path
    stateStream = state
  }

  /// A handle on the whole state of `store`, for a feature written against a
  /// ``ScopedStore`` and run (or tested) with a store of its own state.
  ///
  /// - Parameter store: The store; the handle holds it.
  public init(_ store: Store<State>) {
    self.init(root: store, path: \State.self, state: store.state)
  }

  /// The current child state: the child state after the last reduction of the root store.
  public var currentState: State {
    root.scopedValue(at: path) as! State
  }

  /// The child state: the current child state first, then each new one.
  ///
  /// For an `Equatable` child state, a new value is published only when a reduction changes
  /// it (shared with ``Store/slice(_:)`` of the same key path); otherwise after every
  /// reduction. Never fails; completes when the root store is freed.
  public var state: Observable<State> {
    stateStream
  }

  /// Each action as it reaches the root store's reducer (see ``Store/actions``).
  public var actions: Observable<any Action> {
    root.scopedActions
  }

  /// The value at `path` of the child state: the current value first, then each new value
  /// when a reduction changes it.
  ///
  /// The same observable as the root store's ``Store/slice(_:)`` at the joined key path, so
  /// it shares one evaluation per reduction with every other subscriber of that path.
  ///
  /// - Parameter path: The part of the child state to observe.
  /// - Returns: An observable that holds the root store.
  public func slice<Value: Equatable>(_ path: KeyPath<State, Value>) -> Observable<Value> {
    root.scopedSlice(at: joined(path))
  }

  /// The value `selector` computes from the child state: the current value first, then each
  /// new value unless `isDuplicate` says it equals the previous one (see
  /// ``Store/select(_:isDuplicate:)``).
  public func select<Value>(
    _ selector: @escaping (State) -> Value, isDuplicate: @escaping (Value, Value) -> Bool
  ) -> Observable<Value> {
    root.scopedSelect(at: path, { selector($0 as! State) }, isDuplicate: isDuplicate)
  }

  /// The value `selector` computes from the child state: the current value first, then each
  /// new value that differs (by `==`) from the previous one.
  public func select<Value: Equatable>(_ selector: @escaping (State) -> Value) -> Observable<
    Value
  > {
    select(selector, isDuplicate: { $0 == $1 })
  }

  /// A handle on the part of this child state at `path`.
  ///
  /// - Parameter path: Where the grandchild state lives in this child state.
  /// - Returns: A handle on the same root store.
  public func scope<Child>(_ path: KeyPath<State, Child>) -> ScopedStore<Child> {
    let full = joined(path)
    return ScopedStore<Child>(
      root: root, path: full,
      state: root.scopedSelect(at: full, { $0 as! Child }, isDuplicate: { _, _ in false }))
  }

  /// A handle on the part of this child state at `path`; its ``state`` emits only when that
  /// part changes.
  public func scope<Child: Equatable>(_ path: KeyPath<State, Child>) -> ScopedStore<Child> {
    let full = joined(path)
    return ScopedStore<Child>(root: root, path: full, state: root.scopedSlice(at: full))
  }

  /// Dispatches `action` to the root store (see `Store.dispatch(_:)`).
  ///
  /// - Parameter action: The action to dispatch.
  public func dispatch(_ action: any Action) {
    root.scopedDispatch(action)
  }

  /// Dispatches each element of `actions` to the root store as it arrives (see
  /// `Store.dispatch(_:)`).
  ///
  /// - Parameter actions: The actions to dispatch.
  /// - Returns: A disposable that stops dispatching.
  @discardableResult
  public func dispatch(_ actions: Observable<any Action>) -> Disposable {
    let root = self.root
    return actions.subscribe(onNext: { [weak root] action in root?.scopedDispatch(action) })
  }

  /// Dispatches each element of a stream of one action type to the root store as it arrives.
  ///
  /// - Parameter actions: The actions to dispatch.
  /// - Returns: A disposable that stops dispatching.
  @discardableResult
  public func dispatch<Actions: ObservableConvertibleType>(_ actions: Actions) -> Disposable
  where Actions.Element: Action {
    let root = self.root
    return actions.asObservable().subscribe(onNext: { [weak root] action in
      root?.scopedDispatch(action)
    })
  }

  /// Dispatches `action` to the root store without blocking the thread (see
  /// ``Store/send(_:)``).
  ///
  /// - Parameter action: The action to dispatch.
  public func send(_ action: sending any Action) async {
    await root.scopedSend(action)
  }

  /// The value at `path` of the child state as an asynchronous sequence that cannot fail
  /// (see ``Store/values(_:)``).
  ///
  /// - Parameter path: The part of the child state to follow.
  /// - Returns: The values at `path`.
  public func values<Value: Equatable & Sendable>(_ path: KeyPath<State, Value>)
    -> AsyncStream<Value>
  {
    slice(path).nonFailingValues
  }

  /// The key path from the root state to `path` of the child state.
  private func joined<Value>(_ path: KeyPath<State, Value>) -> AnyKeyPath {
    self.path.appending(path: path)!
  }
}

extension ScopedStore where State: Sendable {
  /// The child state as an asynchronous sequence that cannot fail: the current child state
  /// first, then each new one, as ``state`` publishes them.
  public var states: AsyncStream<State> {
    state.nonFailingValues
  }
}

/// What a ``ScopedStore`` asks of its root ``Store``, whose state type it does not know: key
/// paths arrive type-erased and the store casts them back to its own.
protocol ScopeRoot: AnyObject, Sendable {
  func scopedValue(at path: AnyKeyPath) -> Any
  func scopedSlice<Value: Equatable>(at path: AnyKeyPath) -> Observable<Value>
  func scopedSelect<Value>(
    at path: AnyKeyPath, _ selector: @escaping (Any) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool
  ) -> Observable<Value>
  func scopedElements<Element: Identifiable & Equatable>(at path: AnyKeyPath, id: Element.ID)
    -> Observable<Element?>
  /// Whether the element a handle follows is gone (``ScopedStore/isStale``).
  var scopeIsStale: Bool { get }
  var scopedActions: Observable<any Action> { get }
  func scopedDispatch(_ action: any Action)
  func scopedSend(_ action: sending any Action) async
}

extension Store: ScopeRoot {
  func scopedValue(at path: AnyKeyPath) -> Any {
    currentState[keyPath: path]!
  }

  func scopedSlice<Value: Equatable>(at path: AnyKeyPath) -> Observable<Value> {
    slice(path as! KeyPath<State, Value>)
  }

  func scopedSelect<Value>(
    at path: AnyKeyPath, _ selector: @escaping (Any) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool
  ) -> Observable<Value> {
    select({ selector($0[keyPath: path]!) }, isDuplicate: isDuplicate)
  }

  func scopedElements<Element: Identifiable & Equatable>(at path: AnyKeyPath, id: Element.ID)
    -> Observable<Element?>
  {
    slice(path as! KeyPath<State, IdentifiedList<Element>>, id: id)
  }

  var scopeIsStale: Bool { false }
  var scopedActions: Observable<any Action> { actions }

  func scopedDispatch(_ action: any Action) {
    dispatch(action)
  }

  func scopedSend(_ action: sending any Action) async {
    await send(action)
  }
}
