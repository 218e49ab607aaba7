extension Reducer where State: Identifiable {
  /// This reducer applied to one element of an identified collection in a larger state:
  /// the element an ``ElementAction`` names.
  ///
  /// Each feature row owns its reducer; the app lifts it over the collection. The reducer
  /// receives the wrapped action of an ``ElementAction`` whose `id` matches an element, and
  /// mutates that element in place. Other actions, and element actions for an identifier
  /// not in the collection (a row removed meanwhile), are ignored.
  ///
  /// ```swift
  /// let todo = Reducer<Todo>.on(TodoAction.self) { todo, action in
  ///   switch action {
  ///   case .toggle: todo.isDone.toggle()
  ///   case .rename(let title): todo.title = title
  ///   }
  /// }
  /// let app = Reducer<AppState>.combine {
  ///   todo.forEach(\.todos)
  ///   listReducer.lift(\.todos)
  /// }
  /// store.dispatch(ElementAction(id: todo.id, action: TodoAction.toggle))
  /// ```
  ///
  /// - Parameter path: Where the collection lives in the parent state: an array, or any
  ///   mutable random-access collection of `State`.
  /// - Returns: A reducer of the parent state.
  /// - Complexity: An element action costs a linear search of the collection by `id`; other
  ///   actions cost one type check. Keep large lists in an ``IdentifiedList``, where the
  ///   element is found by `id` in O(log N).
  public func forEach<Root, Elements>(_ path: WritableKeyPath<Root, Elements>) -> Reducer<Root>
  where Elements: MutableCollection & RandomAccessCollection, Elements.Element == State {
    forEachElement { root, id, reduce in
      guard let index = root[keyPath: path].firstIndex(where: { $0.id == id }) else { return }
      reduce(&root[keyPath: path][index])
    }
  }

  /// This reducer applied to one element of an ``IdentifiedList`` in a larger state: the
  /// element an ``ElementAction`` names, found by `id`.
  ///
  /// The same as the collection form of `forEach(_:)`, without its linear search. Element
  /// actions for an `id` not in the list (a row removed meanwhile) are ignored; the element
  /// keeps its place however the list moves around it.
  ///
  /// - Parameter path: Where the list lives in the parent state.
  /// - Returns: A reducer of the parent state.
  /// - Complexity: An element action costs O(log N) (finding and changing the element; with
  ///   a previous state still held, copying the few nodes on its path); other actions cost one
  ///   type check.
  public func forEach<Root>(_ path: WritableKeyPath<Root, IdentifiedList<State>>) -> Reducer<Root> {
    forEachElement { root, id, reduce in root[keyPath: path].update(id: id, reduce) }
  }

  /// This reducer applied to one value of a dictionary keyed by identifier in a larger state:
  /// the value an ``ElementAction`` names.
  ///
  /// The same as the collection form of `forEach(_:)` for a dictionary from each
  /// element's `id` to the element.
  ///
  /// - Parameter path: Where the dictionary lives in the parent state.
  /// - Returns: A reducer of the parent state.
  /// - Complexity: An element action costs one dictionary lookup; other actions cost one type
  ///   check.
  public func forEach<Root>(_ path: WritableKeyPath<Root, [State.ID: State]>) -> Reducer<Root> {
    forEachElement { root, id, reduce in
      guard root[keyPath: path][id] != nil else { return }
      reduce(&root[keyPath: path][id]!)
    }
  }

  /// The shared part of the `forEach` forms: a reducer of `Root` that, for an ``ElementAction``
  /// whose `id` is a `State.ID`, calls `update` with the root state, the `id` and this reducer
  /// applied to the element with the wrapped action (`update` finds the element, or ignores an
  /// `id` that is not there). Other actions cost one type check.
  private func forEachElement<Root>(
    _ update: @escaping (inout Root, State.ID, (inout State) -> Void) -> Void
  ) -> Reducer<Root> {
    let body = self.body
    let misses = ActionCastMisses()
    return Reducer<Root>(
      unchecked: { root, action in
        guard
          let carrier = castAction(action, to: (any ElementActionCarrier).self, misses: misses),
          let element = carrier.element(identifiedBy: State.ID.self)
        else { return }
        update(&root, element.id) { body(&$0, element.action) }
      }, ())
  }
}
