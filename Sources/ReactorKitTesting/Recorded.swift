import ReactorKitStreams

/// Virtual time in a ``TestScheduler``: one unit is one second by default.
public typealias TestTime = Int

/// A value recorded at a virtual time, usually an `Event` of a test observable or observer.
public struct Recorded<Value>: CustomDebugStringConvertible {
  /// When the value was recorded.
  public let time: TestTime
  /// The recorded value.
  public let value: Value

  /// Records `value` at `time`.
  public init(time: TestTime, value: Value) {
    self.time = time
    self.value = value
  }

  /// The value and its time, such as `next(1) @ 210`.
  public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
  /// A `.next(element)` event at `time`.
  public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<
    Event<Element>
  > where Value == Event<Element> {
    Recorded(time: time, value: .next(element))
  }

  /// A `.completed` event at `time`.
  public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self)
    -> Recorded<Event<Element>> where Value == Event<Element>
  {
    Recorded(time: time, value: .completed)
  }

  /// An `.error(error)` event at `time`.
  public static func error<Element>(
    _ time: TestTime, _ error: Swift.Error, _ type: Element.Type = Element.self
  ) -> Recorded<Event<Element>> where Value == Event<Element> {
    Recorded(time: time, value: .error(error))
  }
}

extension Recorded {
  /// The recorded events as an array, for the expected events of an assertion (RxTest's
  /// helper): `Recorded.events(.next(210, 1), .completed(220))`.
  public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...)
    -> [Recorded<Event<Element>>] where Value == Event<Element>
  {
    recordedEvents
  }

  /// The recorded events of one array, as RxTest takes them:
  /// `Recorded.events([.next(210, 1), .completed(220)])`. Join several arrays with `+`.
  ///
  /// There is deliberately no overload taking several arrays: with one, a call whose
  /// elements hold arithmetic (`Recorded.events(.next(210, 0 * 10 + 1), …)`) is too slow to
  /// type-check.
  public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>])
    -> [Recorded<Event<Element>>] where Value == Event<Element>
  {
    recordedEvents
  }
}

/// The virtual times at which a test observable was subscribed and unsubscribed.
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
  /// When the subscription started.
  public let subscribe: TestTime
  /// When it ended; `Int.max` while still active.
  public let unsubscribe: TestTime

  /// A subscription from `subscribe` to `unsubscribe` (`Int.max`: never unsubscribed).
  public init(_ subscribe: TestTime, _ unsubscribe: TestTime = .max) {
    self.subscribe = subscribe
    self.unsubscribe = unsubscribe
  }

  /// The start and end times, such as `(200 : 1000)`; an active subscription ends at
  /// `Infinity`.
  public var debugDescription: String {
    let end = unsubscribe == .max ? "Infinity" : "\(unsubscribe)"
    return "(\(subscribe) : \(end))"
  }
}
