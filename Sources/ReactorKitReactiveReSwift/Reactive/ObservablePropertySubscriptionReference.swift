/// The subscription reference of an ``ObservableProperty``: disposing of it ends the
/// subscription. It does not keep the property alive.
public struct ObservablePropertySubscriptionReference<T>: SubscriptionReferenceType, Hashable {
  @usableFromInline let key: Int
  @usableFromInline let table: SubscriptionTable

  @inlinable
  init(key: Int, table: SubscriptionTable) {
    self.key = key
    self.table = table
  }

  /// Ends the subscription; ending it again does nothing.
  public func dispose() {
    table.remove(key)
  }

  /// Hashes the subscription's key.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(key)
  }

  /// Whether both references name the same subscription.
  public static func == (
    lhs: ObservablePropertySubscriptionReference<T>, rhs: ObservablePropertySubscriptionReference<T>
  ) -> Bool {
    lhs.key == rhs.key && lhs.table === rhs.table
  }
}
