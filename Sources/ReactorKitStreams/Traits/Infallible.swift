/// A sequence that can't fail: elements and, possibly, completion. Unlike ``Driver`` and
/// ``Signal`` it neither shares its subscription nor changes the scheduler.
///
/// This is RxSwift 6's `Infallible`. Make one from a sequence that may fail with
/// `asInfallible(onErrorJustReturn:)` and its siblings, or with `create(subscribe:)`.
public struct Infallible<Element>: InfallibleType {
  let source: Observable<Element>

  /// Wraps `source`, which must never fail.
  init(_ source: Observable<Element>) {
    self.source = source
  }

  /// The sequence as a plain ``Observable``.
  public func asObservable() -> Observable<Element> { source }

  /// Returns `self`.
  public func asInfallible() -> Infallible<Element> { self }
}

extension Infallible: Sendable {}

/// A type that can be converted to an ``Infallible``.
public protocol InfallibleType: ObservableConvertibleType {
  /// The sequence as an ``Infallible``.
  func asInfallible() -> Infallible<Element>
}

/// An event of an ``Infallible`` made with ``Infallible/create(subscribe:)``.
@frozen
public enum InfallibleEvent<Element> {
  /// An element.
  case next(Element)
  /// Completion.
  case completed
}

extension ObservableConvertibleType {
  /// Converts the sequence to an ``Infallible`` that ends with `element` (then completes)
  /// instead of failing.
  public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
    Infallible(asObservable().catchAndReturn(element))
  }

  /// Converts the sequence to an ``Infallible`` that continues with `infallible` instead of
  /// failing.
  public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>)
    -> Infallible<Element>
  {
    Infallible(asObservable().catch { _ in infallible.source })
  }

  /// Converts the sequence to an ``Infallible`` that continues with the infallible
  /// `onErrorRecover` returns for the error instead of failing.
  public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>)
    -> Infallible<Element>
  {
    Infallible(asObservable().catch { onErrorRecover($0).source })
  }
}

extension SharedSequenceConvertibleType {
  /// The shared sequence as an ``Infallible``.
  public func asInfallible() -> Infallible<Element> {
    Infallible(asObservable())
  }
}

// MARK: - Creating

extension Infallible {
  /// Creates an infallible from a subscribe function that sends elements and completion.
  ///
  /// Events after completion, or after disposal, are dropped.
  public static func create(
    subscribe: @escaping (@escaping (InfallibleEvent<Element>) -> Void) -> Disposable
  ) -> Infallible<Element> {
    Infallible(
      Observable.create { observer in
        subscribe { event in
          switch event {
          case .next(let element): observer.on(.next(element))
          case .completed: observer.on(.completed)
          }
        }
      })
  }

  /// An infallible of `element`, then completion.
  public static func just(_ element: Element) -> Infallible<Element> {
    Infallible(.just(element))
  }

  /// An infallible of `element`, delivered on `scheduler`, then completion.
  public static func just(_ element: Element, scheduler: ImmediateSchedulerType)
    -> Infallible<Element>
  {
    Infallible(.just(element, scheduler: scheduler))
  }

  /// An infallible that completes at once.
  public static func empty() -> Infallible<Element> { Infallible(.empty()) }

  /// An infallible that never sends anything.
  public static func never() -> Infallible<Element> { Infallible(.never()) }

  /// The given elements, one per step of `scheduler`, then completion.
  public static func of(
    _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Infallible<Element> {
    Infallible(.from(elements, scheduler: scheduler))
  }

  /// The elements of `sequence`, one per step of `scheduler`, then completion.
  public static func from<Source: Sequence>(
    _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Infallible<Element> where Source.Element == Element {
    Infallible(.from(sequence, scheduler: scheduler))
  }

  /// Calls `factory` for each subscriber and subscribes to the infallible it returns.
  public static func deferred(_ factory: @escaping () -> Infallible<Element>)
    -> Infallible<Element>
  {
    Infallible(.deferred { factory().source })
  }

  /// Merges the elements of `sources`.
  public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
    Infallible(.merge(sources.map(\.source)))
  }

  /// Subscribes to `sources` one after another.
  public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
    Infallible(.concat(sources.map(\.source)))
  }

  // `combineLatest` and `zip` are generated, in `Infallible+CombineLatest.swift`.
}

extension Infallible where Element: RxAbstractInteger {
  /// `0, 1, 2, …`, one element every `period`.
  public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType)
    -> Infallible<Element>
  {
    Infallible(.interval(period, scheduler: scheduler))
  }

  /// `0` after `dueTime`, then, with a `period`, one more element every `period`.
  public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType
  ) -> Infallible<Element> {
    Infallible(.timer(dueTime, period: period, scheduler: scheduler))
  }
}

// MARK: - Subscribing

extension InfallibleType {
  /// Subscribes closures; there is no error closure because the sequence can't fail.
  ///
  /// - Parameters:
  ///   - onNext: Called for each element.
  ///   - onCompleted: Called on completion.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that cancels the subscription.
  public func subscribe(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly.
  public func subscribe<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    asObservable().subscribe(
      with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes a closure that receives every event (never `.error`).
  public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
    asObservable().subscribe(on)
  }

  /// Sends the elements and the completion to `observers`.
  public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element {
    fanOut(to: observers)
  }

  /// Sends the elements, as optionals, and the completion to `observers`.
  public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element? {
    fanOut(toOptionals: observers)
  }

  /// Accepts each element into the relays.
  public func bind(to relays: PublishRelay<Element>...) -> Disposable {
    subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into the relays.
  public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
    subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into the relays.
  public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
    subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Calls `onNext` for each element.
  public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
    subscribe(onNext: onNext)
  }
}

// MARK: - Operators

extension InfallibleType {
  /// Transforms each element.
  public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
    Infallible(asObservable().map(transform))
  }

  /// Transforms each element and drops the `nil` results.
  public func compactMap<Result>(_ transform: @escaping (Element) -> Result?)
    -> Infallible<Result>
  {
    Infallible(asObservable().compactMap(transform))
  }

  /// Passes on the elements for which `predicate` returns `true`.
  public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
    Infallible(asObservable().filter(predicate))
  }

  /// Maps each element to an infallible and merges their elements.
  public func flatMap<Result>(_ selector: @escaping (Element) -> Infallible<Result>)
    -> Infallible<Result>
  {
    Infallible(asObservable().flatMap { selector($0).source })
  }

  /// Maps each element to an infallible and forwards only the latest one's elements.
  public func flatMapLatest<Result>(_ selector: @escaping (Element) -> Infallible<Result>)
    -> Infallible<Result>
  {
    Infallible(asObservable().flatMapLatest { selector($0).source })
  }

  /// Maps each element to an infallible, ignoring elements while the previous one runs.
  public func flatMapFirst<Result>(_ selector: @escaping (Element) -> Infallible<Result>)
    -> Infallible<Result>
  {
    Infallible(asObservable().flatMapFirst { selector($0).source })
  }

  /// Maps each element to an infallible and subscribes to them one after another.
  public func concatMap<Result>(_ selector: @escaping (Element) -> Infallible<Result>)
    -> Infallible<Result>
  {
    Infallible(asObservable().concatMap { selector($0).source })
  }

  /// Emits each intermediate result of folding the elements into `seed`.
  public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate
  ) -> Infallible<Accumulate> {
    Infallible(asObservable().scan(seed, accumulator: accumulator))
  }

  /// Emits `elements` first, then the sequence's own.
  public func startWith(_ elements: Element...) -> Infallible<Element> {
    Infallible(.concat(.from(elements), asObservable()))
  }

  /// The first `count` elements, then completion.
  public func take(_ count: Int) -> Infallible<Element> {
    Infallible(asObservable().take(count))
  }

  /// Drops the first `count` elements.
  public func skip(_ count: Int) -> Infallible<Element> {
    Infallible(asObservable().skip(count))
  }

  /// Drops elements that `comparer` finds equal to the element before them.
  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool)
    -> Infallible<Element>
  {
    Infallible(asObservable().distinctUntilChanged(comparer))
  }

  /// Drops elements whose key equals the key of the element before them.
  public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key)
    -> Infallible<Element>
  {
    Infallible(asObservable().distinctUntilChanged(keySelector))
  }

  /// Emits an element only after `dueTime` passed without another one.
  public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> Infallible<Element>
  {
    Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
  }

  /// Emits at most one element per `dueTime`; see `throttle(_:latest:scheduler:)` on
  /// `ObservableType`.
  public func throttle(
    _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType
  ) -> Infallible<Element> {
    Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
  }

  /// Delays every event by `dueTime`.
  public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
    Infallible(asObservable().delay(dueTime, scheduler: scheduler))
  }

  /// Delivers the events on `scheduler`.
  public func observe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
    Infallible(asObservable().observe(on: scheduler))
  }

  /// Combines each element with the latest element of `second`.
  public func withLatestFrom<Source: InfallibleType, Result>(
    _ second: Source, resultSelector: @escaping (Element, Source.Element) -> Result
  ) -> Infallible<Result> {
    Infallible(asObservable().withLatestFrom(second, resultSelector: resultSelector))
  }

  /// Replaces each element with the latest element of `second`.
  public func withLatestFrom<Source: InfallibleType>(_ second: Source)
    -> Infallible<Source.Element>
  {
    Infallible(asObservable().withLatestFrom(second))
  }

  /// Shares one subscription among observers; see ``ObservableType/share(replay:scope:)``.
  public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected)
    -> Infallible<Element>
  {
    Infallible(asObservable().share(replay: replay, scope: scope))
  }

  /// Runs side effects for the sequence's events.
  public func `do`(
    onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Infallible<Element> {
    Infallible(
      asObservable().do(
        onNext: onNext, afterNext: afterNext, onCompleted: onCompleted,
        afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed,
        onDispose: onDispose))
  }
}

extension InfallibleType where Element: Equatable {
  /// Drops elements equal to the one before them.
  public func distinctUntilChanged() -> Infallible<Element> {
    Infallible(asObservable().distinctUntilChanged())
  }
}
