/// A state property whose every assignment counts as an event, even when the value does not
/// change.
///
/// Use it for one-shot view effects kept in state (alerts, navigation, toasts) and observe it
/// with ``Reactor/pulse(_:)``, which emits on each assignment, including a repeated equal
/// value, and ignores states where the property was not assigned:
///
/// ```swift
/// struct State {
///   @Pulse var alertMessage: String?
/// }
///
/// reactor.pulse(\.$alertMessage)
///   .compactMap { $0 }
///   .subscribe(onNext: { message in showAlert(message) })
/// ```
@propertyWrapper
public struct Pulse<Value> {
  /// The current value. Assigning it increments ``valueUpdatedCount``.
  public var value: Value {
    didSet { riseValueUpdatedCount() }
  }

  /// How many times ``value`` has been assigned; wraps to zero after `UInt.max`.
  public internal(set) var valueUpdatedCount = UInt.min

  /// Creates a pulse holding `wrappedValue`, with an update count of zero.
  public init(wrappedValue: Value) {
    value = wrappedValue
  }

  /// The current value; the property the wrapper is attached to.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The pulse itself, reached with `$property`, for ``Reactor/pulse(_:)``.
  public var projectedValue: Pulse<Value> {
    self
  }

  private mutating func riseValueUpdatedCount() {
    valueUpdatedCount = valueUpdatedCount == .max ? .min : valueUpdatedCount + 1
  }
}

extension Pulse: Sendable where Value: Sendable {}
