import ReactorKit

/// Changes the todos held by the store. (Reactors read them with
/// `provider.store.slice(\.todos.items)`.)
public protocol TodoServiceType: AnyObject {
  /// Adds a todo titled `title` (trimmed); emits it, or fails with a ``TodoError``.
  func add(title: String) -> Observable<Todo>
  /// Renames the todo `id`; emits it, or fails with a ``TodoError``.
  func edit(id: Int, title: String) -> Observable<Todo>
  /// Marks the todo `id` done or not done; emits it, or fails with a ``TodoError``.
  func toggle(id: Int) -> Observable<Todo>
  /// Deletes the todo `id`; emits it, or fails with a ``TodoError``.
  func delete(id: Int) -> Observable<Todo>
  /// Deletes every done todo; emits how many were deleted.
  func deleteDone() -> Observable<Int>
}

/// Why a todo could not be changed, described for the user.
public enum TodoError: Error, Equatable, CustomStringConvertible {
  case emptyTitle
  case titleTooLong(limit: Int)
  case notFound(id: Int)

  public var description: String {
    switch self {
    case .emptyTitle: "A todo needs a title."
    case .titleTooLong(let limit): "Titles are at most \(limit) characters long."
    case .notFound(let id): "There is no todo with id \(id)."
    }
  }
}

/// The ``TodoServiceType`` that dispatches ``TodoAction``s to the app's store.
///
/// Each method validates its input and dispatches when subscribed to (it is deferred), so a
/// reactor's `mutate` can return it as part of its mutation stream.
public final class TodoService: Service, TodoServiceType {
  /// The longest title accepted.
  public static let titleLimit = 80

  public func add(title: String) -> Observable<Todo> {
    perform { store in
      let title = try Self.validated(title)
      store.dispatch(TodoAction.add(title: title))
      return store.currentState.todos.items.last!
    }
  }

  public func edit(id: Int, title: String) -> Observable<Todo> {
    perform { store in
      let title = try Self.validated(title)
      _ = try Self.todo(id, in: store)
      store.dispatch(TodoAction.edit(id: id, title: title))
      return try Self.todo(id, in: store)
    }
  }

  public func toggle(id: Int) -> Observable<Todo> {
    perform { store in
      _ = try Self.todo(id, in: store)
      store.dispatch(TodoAction.toggle(id: id))
      return try Self.todo(id, in: store)
    }
  }

  public func delete(id: Int) -> Observable<Todo> {
    perform { store in
      let todo = try Self.todo(id, in: store)
      store.dispatch(TodoAction.delete(id: id))
      return todo
    }
  }

  public func deleteDone() -> Observable<Int> {
    perform { store in
      let count = store.currentState.todos.items.count(where: \.isDone)
      if count > 0 { store.dispatch(TodoAction.deleteDone) }
      return count
    }
  }

  private func perform<Result>(_ body: @escaping (Store<AppState>) throws -> Result)
    -> Observable<Result>
  {
    Observable.deferred { [provider] in .just(try body(provider.store)) }
  }

  private static func validated(_ title: String) throws -> String {
    let title = title.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { throw TodoError.emptyTitle }
    guard title.count <= titleLimit else { throw TodoError.titleTooLong(limit: titleLimit) }
    return title
  }

  private static func todo(_ id: Int, in store: Store<AppState>) throws -> Todo {
    guard let todo = store.currentState.todos.items.first(where: { $0.id == id }) else {
      throw TodoError.notFound(id: id)
    }
    return todo
  }
}
