import Foundation
import ReactorKit

/// Signs users in and out.
public protocol UserServiceType: AnyObject {
  /// Signs in as `name` (trimmed); emits the user, or fails with a ``UserError``.
  func logIn(name: String) -> Observable<User>
  /// Signs out; emits the user who was signed in, if any.
  func logOut() -> Observable<User?>
}

/// Why signing in failed, described for the user.
public enum UserError: Error, Equatable, CustomStringConvertible {
  case invalidName(String)

  public var description: String {
    switch self {
    case .invalidName(let name):
      "'\(name)' is not a valid name: use 1 to 20 letters, digits, '-' or '_'."
    }
  }
}

/// The ``UserServiceType`` that keeps the session in the app's store.
public final class UserService: Service, UserServiceType {
  public func logIn(name: String) -> Observable<User> {
    Observable.deferred { [provider] in
      let name = name.trimmingCharacters(in: .whitespaces)
      let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
      guard (1...20).contains(name.count),
        name.unicodeScalars.allSatisfy(allowed.contains)
      else { throw UserError.invalidName(name) }
      let user = User(name: name)
      return provider.store.dispatchEffect(SessionAction.logIn(user), then: .just(user))
    }
  }

  public func logOut() -> Observable<User?> {
    Observable.deferred { [provider] in
      let user = provider.store.currentState.session.user
      if user != nil { provider.store.dispatch(SessionAction.logOut) }
      return .just(user)
    }
  }
}
