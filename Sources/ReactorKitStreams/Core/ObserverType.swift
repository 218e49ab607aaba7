/// A receiver of sequence events.
///
/// Producers call ``on(_:)`` serially: never concurrently and never again after a terminal
/// event. Observers may therefore keep unsynchronised state.
public protocol ObserverType {
  /// The element type received.
  associatedtype Element

  /// Receives one event.
  func on(_ event: Event<Element>)
}

extension ObserverType {
  /// Sends `.next(element)`.
  @inlinable
  public func onNext(_ element: Element) { on(.next(element)) }

  /// Sends `.completed`.
  @inlinable
  public func onCompleted() { on(.completed) }

  /// Sends `.error(error)`.
  @inlinable
  public func onError(_ error: Swift.Error) { on(.error(error)) }

  /// Wraps the observer in a type-erased ``AnyObserver``.
  @inlinable
  public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

  /// An observer that transforms elements with `transform` before forwarding them here.
  @inlinable
  public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element)
    -> AnyObserver<Result>
  {
    AnyObserver { event in self.on(event.map(transform)) }
  }
}

/// A type-erased observer that forwards events to a closure or another observer.
@frozen
public struct AnyObserver<Element>: ObserverType {
  /// The closure every event goes to.
  public typealias EventHandler = (Event<Element>) -> Void

  @usableFromInline let observer: EventHandler

  /// Creates an observer that calls `eventHandler` for each event.
  @inlinable
  public init(eventHandler: @escaping EventHandler) {
    self.observer = eventHandler
  }

  /// Wraps `observer`; wrapping an `AnyObserver` reuses its handler.
  @inlinable
  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    if let any = observer as? AnyObserver<Element> {
      self.observer = any.observer
    } else {
      self.observer = observer.on
    }
  }

  /// Forwards `event`.
  @inlinable
  public func on(_ event: Event<Element>) { observer(event) }

  /// Returns itself.
  @inlinable
  public func asObserver() -> AnyObserver<Element> { self }
}
