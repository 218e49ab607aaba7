/// Types the runtime can't cast or reflect into (`InlineArray`, whose storage reflects as an
/// invalid type, and that storage itself), found by name once per type.
final class UnreflectableTypes: @unchecked Sendable {
  // Safety: `known` is guarded by `lock`.
  static let shared = UnreflectableTypes()
  private let lock = Lock()
  private var known: [ObjectIdentifier: Bool] = [:]
  /// Types beyond this many are named every time.
  private static let capacity = 1_024

  func contains(_ type: Any.Type) -> Bool {
    let key = ObjectIdentifier(type)
    if let answer = lock.withLock({ known[key] }) { return answer }
    let name = String(reflecting: type)
    let answer = name.hasPrefix("Swift.InlineArray<") || name.hasPrefix("<<< invalid type")
    lock.withLock {
      if known.count < Self.capacity { known[key] = answer }
    }
    return answer
  }
}
