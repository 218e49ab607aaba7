/// The subscription reference of an ``ObservableProperty``: disposing of it ends the
/// subscription. It holds the property weakly.
public struct ObservablePropertySubscriptionReference<T>: SubscriptionReferenceType, Hashable {
  @usableFromInline let key: Int
  @usableFromInline weak var stream: ObservableProperty<T>?

  @inlinable
  init(key: Int, stream: ObservableProperty<T>) {
    self.key = key
    self.stream = stream
  }

  /// Ends the subscription; ending it again does nothing.
  public func dispose() {
    stream?.unsubscribe(key: key)
  }

  /// Hashes the subscription's key.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(key)
  }

  /// Whether both references name the same subscription.
  public static func == (
    lhs: ObservablePropertySubscriptionReference<T>, rhs: ObservablePropertySubscriptionReference<T>
  ) -> Bool {
    lhs.key == rhs.key && lhs.stream === rhs.stream
  }
}
