import ReactorKit

/// Holds subscription references and disposes of them all when it is disposed or freed.
///
/// Thread-safe.
public final class SubscriptionReferenceBag: SubscriptionReferenceType, @unchecked Sendable {
  // Safety: `references` is guarded by `lock`; references are disposed after it is released.
  private let lock = Lock()
  private var references: [any SubscriptionReferenceType] = []

  /// Creates an empty bag.
  public init() {}

  /// Creates a bag holding the non-`nil` `references`.
  public init(_ references: (any SubscriptionReferenceType)?...) {
    self.references = references.compactMap { $0 }
  }

  deinit {
    for reference in references { reference.dispose() }
  }

  /// Adds `reference` to the bag unless it is `nil`.
  public func addReference(reference: (any SubscriptionReferenceType)?) {
    guard let reference else { return }
    lock.withLock { references.append(reference) }
  }

  /// Adds `rhs` to the bag `lhs` unless it is `nil`.
  public static func += (lhs: SubscriptionReferenceBag, rhs: (any SubscriptionReferenceType)?) {
    lhs.addReference(reference: rhs)
  }

  /// Disposes of every reference in the bag and empties it.
  public func dispose() {
    let taken = lock.withLock {
      defer { references = [] }
      return references
    }
    for reference in taken { reference.dispose() }
  }
}
