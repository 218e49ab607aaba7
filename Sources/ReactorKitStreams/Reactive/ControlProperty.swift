/// A type that is both an observable of a control's values and an observer that sets them.
public protocol ControlPropertyType: ObservableType, ObserverType {
  /// The property as a ``ControlProperty``.
  func asControlProperty() -> ControlProperty<Element>
}

/// A property of a control (a text field's text, a switch's value): an observable of its
/// values that starts with the current one, and an observer that sets it.
///
/// This is RxCocoa's `ControlProperty` without any UI framework. The values never fail and
/// are subscribed on the main thread (``ConcurrentMainScheduler``); setting a value sends it
/// to the value sink. Only values the user produced should be emitted, not those set
/// through the property itself.
public struct ControlProperty<PropertyType>: ControlPropertyType {
  /// The element type.
  public typealias Element = PropertyType

  private let values: Observable<PropertyType>
  private let valueSink: AnyObserver<PropertyType>

  /// Creates a property from its `values` (the current one first) and the observer that
  /// sets it.
  public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
  where Element == Values.Element, Element == Sink.Element {
    self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
    self.valueSink = valueSink.asObserver()
  }

  /// Subscribes `observer` to the values.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    values.subscribe(observer)
  }

  /// The values, without the current one: only the changes.
  public var changed: ControlEvent<PropertyType> {
    ControlEvent(events: values.skip(1))
  }

  /// The values as an ``Observable``.
  public func asObservable() -> Observable<Element> { values }

  /// Returns `self`.
  public func asControlProperty() -> ControlProperty<Element> { self }

  /// Sets the property to a `.next` element. An error is a programming error (fatal in
  /// debug builds); completion is passed to the sink.
  public func on(_ event: Event<Element>) {
    switch event {
    case .error(let error):
      bindingError(error)
    case .next, .completed:
      valueSink.on(event)
    }
  }

  /// The value sink as an observer.
  public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}

extension ControlProperty {
  /// The values as a ``Driver``.
  public func asDriver() -> Driver<Element> {
    asDriver(onErrorRecover: { error in
      bindingError(error)
      return .empty()
    })
  }
}

extension ControlPropertyType where Element == String? {
  /// The property with `nil` read as `""`.
  public var orEmpty: ControlProperty<String> {
    let original = asControlProperty()
    return ControlProperty<String>(
      values: original.map { $0 ?? "" }, valueSink: original.mapObserver { $0 })
  }
}
