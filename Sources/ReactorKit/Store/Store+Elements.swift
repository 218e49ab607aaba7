import ReactorKitStreams

extension Store {
  /// The element with `id` of the ``IdentifiedList`` at `path`: the current element first
  /// (`nil` when the list has none), then each new value when a reduction changes it, and
  /// `nil` when it is removed.
  ///
  /// Made for rows: every element subscriber of one list shares one evaluation per
  /// reduction, so a reduction that leaves the list alone costs one comparison however many
  /// rows are observed, and one that changes a few elements costs those changes and the calls
  /// to their subscribers. An element is followed by `id`, so inserting, removing or moving
  /// other elements doesn't notify it, and its removal never stops the program (unlike a
  /// key path with a position, `\.todos[3]`, whose element may go away).
  ///
  /// ```swift
  /// store.slice(\.todos, id: todo.id)
  ///   .subscribe(onNext: { todo in row.render(todo) })   // nil once removed
  ///   .disposed(by: disposeBag)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The list in the state.
  ///   - id: The element's identifier.
  /// - Returns: An observable that holds the store; it never fails and completes when the
  ///   store is freed.
  /// - Complexity: Per reduction, O(1) for all element subscribers of an unchanged list;
  ///   otherwise the changes times O(log N), plus one call per subscriber of a changed element.
  @inlinable
  public func slice<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> Observable<Element?> {
    let key = AnyHashable(ElementSelectionKey(path))
    if let stored = StoredPropertyPath(path) {
      return Observable { observer in
        self.core.subscribeElement(
          key: key, id: id, observer: observer, evaluate: { $0[stored: stored] })
      }
    }
    return Observable { observer in
      self.core.subscribeElement(
        key: key, id: id, observer: observer, evaluate: { $0.value[keyPath: path] })
    }
  }

  /// A handle on the element with `id` of the ``IdentifiedList`` at `path`, for a feature
  /// that works on one element (a row, a detail screen), or `nil` when the list has no such
  /// element.
  ///
  /// The scope follows its element by `id`, wherever it moves. When the element is removed,
  /// the scope keeps its last value, ``ScopedStore/isStale`` turns `true`, and its streams stay
  /// silent until an element with that `id` comes back; the parent store is never affected.
  /// Prefer it to `scope(\.todos[3])`: a key path with a position stops the program in the
  /// store's dispatch once the list is shorter.
  ///
  /// ```swift
  /// guard let row = store.scope(\.todos, id: todo.id) else { return }
  /// row.slice(\.title).subscribe(onNext: { label.text = $0 })
  /// row.dispatch(TodoAction.toggle(id: todo.id))
  /// ```
  ///
  /// - Parameters:
  ///   - path: The list in the state.
  ///   - id: The element's identifier.
  /// - Returns: A handle that holds this store, or `nil` when no element has `id`.
  public func scope<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> ScopedStore<Element>? {
    guard let element = currentState[keyPath: path][id: id] else { return nil }
    return ScopedStore(
      element: element, base: self, elements: slice(path, id: id),
      current: { [weak self] in self?.currentState[keyPath: path][id: id] })
  }
}

extension ScopedStore {
  /// A handle on the element with `id` of the ``IdentifiedList`` at `path` of the child
  /// state, or `nil` when the list has no such element (see ``Store/scope(_:id:)``).
  ///
  /// - Parameters:
  ///   - path: The list in the child state.
  ///   - id: The element's identifier.
  /// - Returns: A handle on the same root store, or `nil` when no element has `id`.
  public func scope<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> ScopedStore<Element>? {
    guard let element = currentState[keyPath: path][id: id] else { return nil }
    let full = self.path.appending(path: path)!
    let root = self.root
    return ScopedStore<Element>(
      element: element, base: root, elements: root.scopedElements(at: full, id: id),
      current: { (root.scopedValue(at: full) as! IdentifiedList<Element>)[id: id] })
  }

  /// The element with `id` of the ``IdentifiedList`` at `path` of the child state (see
  /// ``Store/slice(_:id:)``).
  ///
  /// - Parameters:
  ///   - path: The list in the child state.
  ///   - id: The element's identifier.
  /// - Returns: An observable that holds the root store: the current element (`nil` when
  ///   there is none), each new value, and `nil` when it is removed.
  public func slice<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> Observable<Element?> {
    root.scopedElements(at: self.path.appending(path: path)!, id: id)
  }

  /// Whether this handle's element is gone: `true` for a handle made by ``Store/scope(_:id:)``
  /// (or a handle within one) whose element was removed from its list, until an element with
  /// its `id` comes back. A stale handle shows the element's last value; dispatching still
  /// reaches the store.
  public var isStale: Bool {
    root.scopeIsStale
  }

}

extension ScopedStore where State: Identifiable & Equatable {
  /// A handle on one element: its root follows the element and falls back to `element`'s
  /// last value while the element is gone.
  init(
    element: State, base: any ScopeRoot, elements: Observable<State?>,
    current: @escaping () -> State?
  ) {
    let root = ElementScopeRoot(element: element, base: base, elements: elements, current: current)
    self.init(
      root: root, path: \State.self,
      state: root.scopedSelect(at: \State.self, { $0 as! State }, isDuplicate: { $0 == $1 }))
  }
}

/// The root of a handle on one element of an identified list: reads go to the store's current
/// state and fall back to the element's last value while it is gone; streams follow the
/// element by `id` (one element subscription each); actions go to the store.
final class ElementScopeRoot<Element: Identifiable & Equatable>: ScopeRoot, @unchecked Sendable {
  // Safety: `last` is a `LockedBox`; `base` is `Sendable`; `elements` and `current` are
  // immutable and only read the store (which synchronises itself); `follower` is written once,
  // in `init`, before the object is shared.
  let base: any ScopeRoot
  let elements: Observable<Element?>
  let current: () -> Element?
  /// The element's last value, and whether it is gone.
  let last: LockedBox<(element: Element, isGone: Bool)>
  private var follower: Disposable?

  init(
    element: Element, base: any ScopeRoot, elements: Observable<Element?>,
    current: @escaping () -> Element?
  ) {
    self.base = base
    self.elements = elements
    self.current = current
    last = LockedBox((element, false))
    let last = self.last
    follower = elements.subscribe(onNext: { element in
      last.withLock { last in
        if let element {
          last = (element, false)
        } else {
          last.isGone = true
        }
      }
    })
  }

  deinit {
    follower?.dispose()
  }

  /// The element now, or its last value while it is gone.
  var element: Element {
    if let element = current() {
      return element
    }
    return last.withLock { $0.element }
  }

  var scopeIsStale: Bool {
    current() == nil
  }

  func scopedValue(at path: AnyKeyPath) -> Any {
    element[keyPath: path]!
  }

  func scopedSlice<Value: Equatable>(at path: AnyKeyPath) -> Observable<Value> {
    scopedSelect(at: path, { $0 as! Value }, isDuplicate: { $0 == $1 })
  }

  func scopedSelect<Value>(
    at path: AnyKeyPath, _ selector: @escaping (Any) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool
  ) -> Observable<Value> {
    let elements = self.elements
    let last = self.last
    return Observable.create { observer in
      // The element subscription calls this closure serially (the store's turn).
      var isFirst = true
      return elements.subscribe(
        onNext: { element in
          defer { isFirst = false }
          if let element {
            observer.onNext(selector(element[keyPath: path]!))
          } else if isFirst {
            // Gone already: the last value, once.
            observer.onNext(selector(last.withLock { $0.element }[keyPath: path]!))
          }
        },
        onCompleted: { observer.onCompleted() })
    }
    .distinctUntilChanged(isDuplicate)
  }

  func scopedElements<Nested: Identifiable & Equatable>(at path: AnyKeyPath, id: Nested.ID)
    -> Observable<Nested?>
  {
    scopedSelect(
      at: path, { ($0 as! IdentifiedList<Nested>)[id: id] }, isDuplicate: { $0 == $1 })
  }

  var scopedActions: Observable<any Action> { base.scopedActions }

  func scopedDispatch(_ action: any Action) {
    base.scopedDispatch(action)
  }

  func scopedSend(_ action: sending any Action) async {
    await base.scopedSend(action)
  }
}
