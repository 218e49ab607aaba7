/// An action made of a type name and an untyped, JSON-compatible payload, serialisable as a
/// dictionary (see ``Coding``).
///
/// Prefer your own action types; adopt ``StandardActionConvertible`` to convert them to and
/// from a `StandardAction` when a tool needs the dictionary form.
public struct StandardAction: Action {
  /// The name of the action's type.
  public let type: String
  /// The payload, JSON-compatible.
  public let payload: [String: AnyObject]?
  /// Whether the action stands for a typed action (``StandardActionConvertible``).
  public let isTypedAction: Bool

  /// Creates a standard action.
  ///
  /// - Parameters:
  ///   - type: The name of the action's type.
  ///   - payload: The payload, JSON-compatible.
  ///   - isTypedAction: Whether the action stands for a typed action.
  public init(type: String, payload: [String: AnyObject]? = nil, isTypedAction: Bool = false) {
    self.type = type
    self.payload = payload
    self.isTypedAction = isTypedAction
  }
}

/// A type that converts to and from a dictionary.
public protocol Coding {
  /// Creates a value from `dictionary`; `nil` when it lacks a required entry.
  init?(dictionary: [String: AnyObject])
  /// The value as a dictionary.
  var dictionaryRepresentation: [String: AnyObject] { get }
}

extension StandardAction: Coding {
  private static let typeKey = "type"
  private static let payloadKey = "payload"
  private static let isTypedActionKey = "isTypedAction"
  /// What the dictionary holds in place of a missing payload.
  private static let null = "ReSwift_Null"

  /// Creates an action from a dictionary made by ``dictionaryRepresentation``; `nil` when the
  /// type name or the typed-action flag is missing.
  public init?(dictionary: [String: AnyObject]) {
    guard let type = dictionary[Self.typeKey] as? String,
      let isTypedAction = dictionary[Self.isTypedActionKey] as? Bool
    else { return nil }
    self.type = type
    payload = dictionary[Self.payloadKey] as? [String: AnyObject]
    self.isTypedAction = isTypedAction
  }

  /// The action as a dictionary with the keys `type`, `payload` (`"ReSwift_Null"` when there is
  /// none) and `isTypedAction`.
  public var dictionaryRepresentation: [String: AnyObject] {
    [
      Self.typeKey: type as AnyObject,
      Self.payloadKey: payload.map { $0 as AnyObject } ?? Self.null as AnyObject,
      Self.isTypedActionKey: isTypedAction as AnyObject,
    ]
  }
}

/// An action type that converts to and from a ``StandardAction``, for serialisation.
public protocol StandardActionConvertible: Action {
  /// Creates the action from the payload of `standardAction`.
  init(_ standardAction: StandardAction)

  /// The action as a standard action: its type name, its payload, and `isTypedAction: true`.
  func toStandardAction() -> StandardAction
}
