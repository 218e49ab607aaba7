import ReactorKit

/// A signed-in user.
public struct User: Codable, Equatable, Hashable, Sendable {
  public var name: String

  public init(name: String) {
    self.name = name
  }
}

/// Who is signed in.
public struct SessionState: Codable, Equatable, Sendable {
  public var user: User?

  public init(user: User? = nil) {
    self.user = user
  }
}

/// Changes to the session.
public enum SessionAction: StoreAction, Codable, Equatable, Sendable {
  case logIn(User)
  case logOut
}

extension SessionState {
  /// The session feature's reducer.
  public static let reducer = Reducer<SessionState>.on(SessionAction.self) { state, action in
    switch action {
    case .logIn(let user): state.user = user
    case .logOut: state.user = nil
    }
  }
}
