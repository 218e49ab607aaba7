/// A class whose instances are equal only to themselves (`===`), as in ReactorKit: declare
/// a reactor `IdentityEquatable` to compare reactors, for example in a view's diffing.
public protocol IdentityEquatable: AnyObject, Equatable {}

extension IdentityEquatable {
  /// Whether `lhs` and `rhs` are the same instance.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs === rhs
  }
}

/// A class whose instances are equal only to themselves and hash by identity, as in
/// ReactorKit: reactors as dictionary keys or set members.
public protocol IdentityHashable: IdentityEquatable, Hashable {}

extension IdentityHashable {
  /// Hashes the instance's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
