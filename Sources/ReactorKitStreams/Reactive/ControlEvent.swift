/// A type that can be converted to a ``ControlEvent``.
public protocol ControlEventType: ObservableType {
  /// The sequence as a ``ControlEvent``.
  func asControlEvent() -> ControlEvent<Element>
}

/// A sequence of events of a control (taps, edits): it never fails, and it is subscribed on
/// the main thread (``ConcurrentMainScheduler``), so the control is touched only there.
///
/// This is RxCocoa's `ControlEvent` without any UI framework: expose your own views' events
/// with it in an extension of ``Reactive``. It should complete when the control goes away
/// and must not replay past events.
public struct ControlEvent<PropertyType>: ControlEventType {
  /// The element type.
  public typealias Element = PropertyType

  private let events: Observable<PropertyType>

  /// Wraps `events`, which must not fail; they are subscribed on the main thread.
  public init<Events: ObservableType>(events: Events) where Events.Element == Element {
    self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
  }

  /// Subscribes `observer` to the events.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    events.subscribe(observer)
  }

  /// The events as an ``Observable``.
  public func asObservable() -> Observable<Element> { events }

  /// Returns `self`.
  public func asControlEvent() -> ControlEvent<Element> { self }
}

extension ControlEvent: Sendable {}

extension ControlEvent {
  /// The events as a ``Driver``.
  public func asDriver() -> Driver<Element> {
    asDriver(onErrorRecover: { error in
      bindingError(error)
      return .empty()
    })
  }

  /// The events as a ``Signal``.
  public func asSignal() -> Signal<Element> {
    asSignal(onErrorRecover: { error in
      bindingError(error)
      return .empty()
    })
  }
}
