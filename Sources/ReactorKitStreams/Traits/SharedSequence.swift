/// A sequence that never fails, delivers its events on its strategy's scheduler and shares
/// one subscription among its observers, the way its ``SharingStrategyProtocol`` says.
///
/// This is RxCocoa's `SharedSequence`, without any UI framework: ``Driver`` and ``Signal``
/// are its two flavours. Build one with `asDriver(onErrorJustReturn:)`,
/// `asSignal(onErrorJustReturn:)` and their siblings, which put the guarantees in place.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>:
  SharedSequenceConvertibleType
{
  let source: Observable<Element>

  /// Wraps `source`, shared by the strategy. `source` must already deliver on the
  /// strategy's scheduler and never fail.
  init(_ source: Observable<Element>) {
    self.source = SharingStrategy.share(source)
  }

  /// Wraps `source` as is.
  init(raw source: Observable<Element>) {
    self.source = source
  }

  /// The shared observable behind the sequence.
  public func asObservable() -> Observable<Element> { source }

  /// Returns `self`.
  public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

extension ObservableConvertibleType {
  /// The sequence delivered on `Strategy`'s scheduler, its errors handled by `handleErrors`,
  /// and shared by `Strategy`: the conversion behind `asDriver(onError…:)` and
  /// `asSignal(onError…:)`.
  func asSharedSequence<Strategy: SharingStrategyProtocol>(
    handlingErrors handleErrors: (Observable<Element>) -> Observable<Element>
  ) -> SharedSequence<Strategy, Element> {
    SharedSequence(handleErrors(asObservable().observe(on: Strategy.scheduler)))
  }
}

extension SharedSequence: @unchecked Sendable {
  // Safety: the only stored property is an `Observable`, which is thread-safe.
}

/// How a ``SharedSequence`` flavour delivers and shares its events.
public protocol SharingStrategyProtocol {
  /// The scheduler every event is delivered on.
  static var scheduler: SchedulerType { get }

  /// Shares `source` among observers (for example with ``ObservableType/share(replay:scope:)``).
  static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be converted to a ``SharedSequence``.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
  /// The sharing strategy of the sequence.
  associatedtype SharingStrategy: SharingStrategyProtocol

  /// The sequence as a ``SharedSequence``.
  func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

/// The scheduler factory shared sequences deliver on: a new ``MainScheduler`` for each
/// sequence (as RxCocoa's `SharingScheduler.make`), unless a test replaces it with
/// ``mock(scheduler:action:)``.
///
/// A new instance per sequence keeps delivery on the main thread synchronous: a driver that
/// emits while another one is delivering runs at once instead of waiting for the main queue,
/// and work queued by one sequence never makes another one (or ``MainScheduler/instance``)
/// asynchronous.
public enum SharingScheduler {
  private static let storage = LockedBox<@Sendable () -> SchedulerType>({
    MainScheduler()
  })

  /// Makes the scheduler that a new ``Driver`` or ``Signal`` delivers on.
  public static var make: @Sendable () -> SchedulerType { storage.withLock { $0 } }

  /// Runs `action` with shared sequences delivering on `scheduler`, for tests (for
  /// example with a virtual-time `TestScheduler`).
  ///
  /// Only sequences created inside `action` are affected. Not for production code: the
  /// replacement is global while `action` runs.
  public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
    try mock(makeScheduler: { scheduler }, action: action)
  }

  /// Runs `action` with shared sequences delivering on the schedulers `makeScheduler`
  /// returns, for tests.
  public static func mock(
    makeScheduler: @escaping @Sendable () -> SchedulerType, action: () throws -> Void
  ) rethrows {
    let original = storage.withLock { current in
      let original = current
      current = makeScheduler
      return original
    }
    defer { storage.withLock { $0 = original } }
    try action()
  }
}

extension SharedSequence {
  /// A sequence that completes at once (on the strategy's scheduler).
  public static func empty() -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
  }

  /// A sequence that never sends anything.
  public static func never() -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.never())
  }

  /// A sequence of `element`, then completion (on the strategy's scheduler).
  public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
  }

  /// Calls `factory` for each subscriber and subscribes to the sequence it returns.
  public static func deferred(
    _ factory: @escaping () -> SharedSequence<SharingStrategy, Element>
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(Observable.deferred { factory().asObservable() })
  }

  /// The given elements, one per step of the strategy's scheduler, then completion.
  public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
  }

  /// The elements of `sequence`, one per step of the strategy's scheduler, then completion.
  public static func from<Source: Sequence>(_ sequence: Source)
    -> SharedSequence<SharingStrategy, Element>
  where Source.Element == Element {
    SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
  }

  /// One element if `optional` is non-nil, then completion.
  public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
  }
}

extension SharedSequence where Element: RxAbstractInteger {
  /// `0, 1, 2, …`, one element every `period`; see ``ObservableType/interval(_:scheduler:)``.
  public static func interval(_ period: RxTimeInterval)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
  }

  /// `0` after `dueTime`, then one element every `period`; see
  /// ``ObservableType/timer(_:period:scheduler:)``.
  public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(
      Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
  }
}

extension SharedSequenceConvertibleType {
  /// Transforms each element.
  public func map<Result>(_ transform: @escaping (Element) -> Result)
    -> SharedSequence<SharingStrategy, Result>
  {
    SharedSequence(asObservable().map(transform))
  }

  /// Transforms each element and drops the `nil` results.
  public func compactMap<Result>(_ transform: @escaping (Element) -> Result?)
    -> SharedSequence<SharingStrategy, Result>
  {
    SharedSequence(asObservable().compactMap(transform))
  }

  /// Passes on the elements for which `predicate` returns `true`.
  public func filter(_ predicate: @escaping (Element) -> Bool)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(asObservable().filter(predicate))
  }

  /// Maps each element to a shared sequence and forwards only the latest one's elements.
  ///
  /// The result has the inner sequences' sharing strategy, so a ``Driver`` can map into
  /// ``Signal``s (as in RxCocoa).
  public func flatMapLatest<Sharing: SharingStrategyProtocol, Result>(
    _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
  ) -> SharedSequence<Sharing, Result> {
    SharedSequence(asObservable().flatMapLatest { selector($0).asObservable() })
  }
}
