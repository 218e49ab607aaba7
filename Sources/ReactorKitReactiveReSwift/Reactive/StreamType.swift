/// A type that sends values over time.
public protocol StreamType {
  /// The type of the values.
  associatedtype ValueType
  /// What ``subscribe(_:)`` returns to end the subscription.
  associatedtype DisposableType: SubscriptionReferenceType

  /// Calls `function` with each value sent from now on (an ``ObservablePropertyType`` calls it
  /// with the current value first).
  ///
  /// - Returns: A reference that ends the subscription.
  @discardableResult
  func subscribe(_ function: @escaping (ValueType) -> Void) -> DisposableType
}

extension StreamType {
  /// The optional-returning form of ``subscribe(_:)`` this package had before it matched
  /// ReactiveReSwift 5.0, kept so that `stream.subscribe { … }?.dispose()` still compiles.
  @available(
    *, deprecated,
    message: "subscribe(_:) returns a non-optional DisposableType, as in ReactiveReSwift 5.0"
  )
  @_disfavoredOverload
  @discardableResult
  public func subscribe(_ function: @escaping (ValueType) -> Void) -> DisposableType? {
    let reference: DisposableType = subscribe(function)
    return reference
  }
}

/// A stream that holds a current value and sends it again each time it changes.
public protocol ObservablePropertyType: StreamType {
  /// The current value; setting it sends it to the subscribers.
  var value: ValueType { get set }
}

/// A reference to a subscription that can end it.
public protocol SubscriptionReferenceType {
  /// Ends the subscription. Ending it again does nothing.
  func dispose()
}
