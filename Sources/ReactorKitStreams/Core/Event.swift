/// One notification of a sequence.
///
/// A sequence obeys the grammar `next* (error | completed)?`: any number of elements, then at
/// most one terminal event, after which nothing more is delivered.
@frozen
public enum Event<Element> {
  /// The next element.
  case next(Element)
  /// The sequence failed; no further events follow.
  case error(Swift.Error)
  /// The sequence finished; no further events follow.
  case completed

  /// The element of a `.next` event, otherwise `nil`.
  @inlinable
  public var element: Element? {
    if case .next(let value) = self { return value }
    return nil
  }

  /// The error of an `.error` event, otherwise `nil`.
  @inlinable
  public var error: Swift.Error? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// Whether the event is `.completed`.
  @inlinable
  public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// Whether the event is `.error` or `.completed`.
  @inlinable
  public var isStopEvent: Bool {
    if case .next = self { return false }
    return true
  }

  /// Transforms the element of a `.next` event; a thrown error becomes an `.error` event.
  @inlinable
  public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
    switch self {
    case .next(let value):
      do { return .next(try transform(value)) } catch { return .error(error) }
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
  public var debugDescription: String {
    switch self {
    case .next(let value): return "next(\(value))"
    case .error(let error): return "error(\(error))"
    case .completed: return "completed"
    }
  }
}

/// Types that can be turned into an ``Event``; lets `materialize`/`dematerialize` work on
/// sequences of events.
public protocol EventConvertible {
  /// The element type of the event.
  associatedtype Element
  /// The event.
  var event: Event<Element> { get }
}

extension Event: EventConvertible {
  /// The event itself.
  public var event: Event<Element> { self }
}
