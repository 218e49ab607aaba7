/// An action for one element of an identified collection: the element's `id` and the
/// `action` to apply to it, reduced by a reducer built with
/// `Reducer.forEach(_:)`.
///
/// ```swift
/// store.dispatch(ElementAction(id: todo.id, action: TodoAction.toggle))
/// ```
///
/// Equatable, hashable and codable (so it can be recorded and replayed) when its parts are.
public struct ElementAction<ID: Hashable, Wrapped: Action>: Action {
  /// The identifier of the element the action is for.
  public let id: ID
  /// The action applied to that element.
  public let action: Wrapped

  /// Creates an action for the element identified by `id`.
  ///
  /// - Parameters:
  ///   - id: The identifier of the element.
  ///   - action: The action for the element's reducer.
  public init(id: ID, action: Wrapped) {
    self.id = id
    self.action = action
  }
}

extension ElementAction: Sendable where ID: Sendable, Wrapped: Sendable {}
extension ElementAction: Equatable where Wrapped: Equatable {}
extension ElementAction: Hashable where Wrapped: Hashable {}
extension ElementAction: Encodable where ID: Encodable, Wrapped: Encodable {}
extension ElementAction: Decodable where ID: Decodable, Wrapped: Decodable {}

/// What `Reducer.forEach(_:)` reads from an
/// ``ElementAction`` without knowing its wrapped action type.
protocol ElementActionCarrier {
  /// The element identifier and the wrapped action, when the identifier is of type `ID`.
  func element<ID: Hashable>(identifiedBy type: ID.Type) -> (id: ID, action: any Action)?
}

extension ElementAction: ElementActionCarrier {
  func element<Other: Hashable>(identifiedBy type: Other.Type) -> (id: Other, action: any Action)? {
    guard let id = id as? Other else { return nil }
    return (id, action)
  }
}
