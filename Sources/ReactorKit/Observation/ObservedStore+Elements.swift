import ReactorKitStreams

extension Store {
  /// An observable model of the element with `id` of the ``IdentifiedList`` at `path`, for a
  /// row of a SwiftUI list, or `nil` when the list has no such element.
  ///
  /// The model follows its element by `id` (``slice(_:id:)``): a dispatch that changes other
  /// elements, or nothing in the list, doesn't reach it, so a list of 1,000 row models costs a
  /// dispatch about what one model costs. When the element is removed, the model keeps showing
  /// its last value (a row that is animating out never reads a missing element).
  ///
  /// ```swift
  /// ForEach(list.todos) { todo in
  ///   if let row = store.observed(\.todos, id: todo.id) { TodoRow(model: row) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - path: The list in the state.
  ///   - id: The element's identifier.
  /// - Returns: A model that holds this store, or `nil` when no element has `id`.
  @MainActor
  @inlinable
  public func observed<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> ObservedStore<Element>? {
    ObservedStore.element(currentState[keyPath: path][id: id], slice(path, id: id), dispatch)
  }
}

extension ScopedStore {
  /// An observable model of the element with `id` of the ``IdentifiedList`` at `path` of the
  /// child state, or `nil` when the list has no such element (see
  /// ``Store/observed(_:id:)``).
  ///
  /// - Parameters:
  ///   - path: The list in the child state.
  ///   - id: The element's identifier.
  /// - Returns: A model that holds the root store, or `nil` when no element has `id`.
  @MainActor
  public func observed<Element: Identifiable & Equatable>(
    _ path: KeyPath<State, IdentifiedList<Element>>, id: Element.ID
  ) -> ObservedStore<Element>? {
    ObservedStore.element(currentState[keyPath: path][id: id], slice(path, id: id), dispatch)
  }
}
