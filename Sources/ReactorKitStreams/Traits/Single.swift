/// The trait of ``Single``.
public enum SingleTrait {}

/// A sequence of exactly one element or an error: the shape of a network request.
///
/// ```swift
/// func fetchUser(id: Int) -> Single<User> {
///   Single.create { observer in
///     let task = api.load(id) { result in observer(result) }
///     return Disposables.create { task.cancel() }
///   }
/// }
///
/// func mutate(action: Action) -> Observable<Mutation> {
///   fetchUser(id: 1).asObservable().map(Mutation.setUser)
/// }
/// ```
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` ends with: its element or an error.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The callback a ``Single`` created with `create(subscribe:)` reports its result to.
  public typealias SingleObserver = (SingleEvent<Element>) -> Void

  /// Creates a single from a subscribe function that reports one result.
  ///
  /// Only the first result counts; later ones are ignored. The returned disposable runs once
  /// the result was delivered or the subscriber disposed.
  ///
  /// - Parameter subscribe: Starts the work, reports `.success(element)` or
  ///   `.failure(error)`, and returns a disposable that cancels the work.
  /// - Returns: The single.
  public static func create(
    subscribe: @escaping (@escaping SingleObserver) -> Disposable
  ) -> Single<Element> {
    Single(
      raw: Observable.create { observer in
        subscribe { result in
          switch result {
          case .success(let element):
            observer.on(.next(element))
            observer.on(.completed)
          case .failure(let error):
            observer.on(.error(error))
          }
        }
      })
  }

  /// Subscribes `observer` to the result.
  ///
  /// - Returns: A disposable that cancels the subscription.
  public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
    primitiveSequence.source.subscribe(
      onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
  }

  /// Subscribes closures for the result.
  ///
  /// A failure without `onFailure` goes to ``Hooks/defaultErrorHandler``.
  ///
  /// - Parameters:
  ///   - onSuccess: Called with the element.
  ///   - onFailure: Called with the error.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that cancels the subscription.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil, onFailure: ((Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    primitiveSequence.source.subscribe(
      onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly; nothing is called once it is
  /// freed.
  public func subscribe<Object: AnyObject>(
    with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
    onFailure: ((Object, Swift.Error) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    primitiveSequence.source.subscribe(
      with: object, onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
  }

  /// Subscribes closures for the result, with RxSwift 5's `onError` label.
  @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil, onError: ((Swift.Error) -> Void)?,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
  }

  /// A single of `element`.
  public static func just(_ element: Element) -> Single<Element> {
    Single(raw: .just(element))
  }

  /// A single of `element`, delivered on `scheduler`.
  public static func just(_ element: Element, scheduler: ImmediateSchedulerType)
    -> Single<Element>
  {
    Single(raw: .just(element, scheduler: scheduler))
  }

  /// A single that fails with `error`.
  public static func error(_ error: Swift.Error) -> Single<Element> {
    Single(raw: .error(error))
  }

  /// A single that never ends.
  public static func never() -> Single<Element> {
    Single(raw: .never())
  }

  /// Transforms the element.
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
    Single(raw: primitiveSequence.source.map(transform))
  }

  /// Transforms the element; a `nil` result makes an empty ``Maybe``.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?)
    -> Maybe<Result>
  {
    Maybe(raw: primitiveSequence.source.compactMap(transform))
  }

  /// Keeps the element when `predicate` accepts it; otherwise the ``Maybe`` is empty.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source.filter(predicate))
  }

  /// Continues with the single `selector` returns for the element.
  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>)
    -> Single<Result>
  {
    Single(raw: primitiveSequence.source.flatMap { try selector($0).source })
  }

  /// Continues with the maybe `selector` returns for the element.
  public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>)
    -> Maybe<Result>
  {
    Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
  }

  /// Continues with the completable `selector` returns for the element.
  public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable)
    -> Completable
  {
    Completable(raw: primitiveSequence.source.flatMap { try selector($0).source })
  }

  /// Replaces an error with `element`.
  public func catchAndReturn(_ element: Element) -> Single<Element> {
    Single(raw: primitiveSequence.source.catchAndReturn(element))
  }

  /// Runs side effects for the single's events, as `do` on `ObservableType` does.
  public func `do`(
    onSuccess: ((Element) throws -> Void)? = nil,
    afterSuccess: ((Element) throws -> Void)? = nil,
    onError: ((Swift.Error) throws -> Void)? = nil,
    afterError: ((Swift.Error) throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Single<Element> {
    Single(
      raw: primitiveSequence.source.do(
        onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }

  /// The single as a ``Maybe``.
  public func asMaybe() -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source)
  }

  /// The single as a ``Completable`` that ignores the element.
  public func asCompletable() -> Completable {
    Completable(raw: primitiveSequence.source.ignoreElements())
  }

  /// Returns the single itself.
  public func asSingle() -> Single<Element> {
    primitiveSequence
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element: RxAbstractInteger {
  /// A single of `0` after `dueTime`.
  public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> Single<Element>
  {
    Single(raw: Observable.timer(dueTime, scheduler: scheduler))
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// Both elements as a pair, once both singles succeeded; the first error fails it.
  public static func zip<E1, E2>(_ source1: Single<E1>, _ source2: Single<E2>)
    -> Single<(E1, E2)>
  where Element == (E1, E2) {
    Single(raw: Observable.zip(source1.source, source2.source))
  }

  /// The result of `resultSelector` for both elements.
  public static func zip<E1, E2>(
    _ source1: Single<E1>, _ source2: Single<E2>,
    resultSelector: @escaping (E1, E2) throws -> Element
  ) -> Single<Element> {
    Single(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
  }

  /// The three elements as a triple, once all singles succeeded.
  public static func zip<E1, E2, E3>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>
  ) -> Single<(E1, E2, E3)> where Element == (E1, E2, E3) {
    Single(raw: Observable.zip(source1.source, source2.source, source3.source))
  }

  /// The result of `resultSelector` for the three elements.
  public static func zip<E1, E2, E3>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>,
    resultSelector: @escaping (E1, E2, E3) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, resultSelector: resultSelector))
  }

  /// The elements of all `sources`, in order, once all succeeded; `[]` for no sources.
  public static func zip<Sources: Collection, Wrapped>(_ sources: Sources) -> Single<Element>
  where Sources.Element == Single<Wrapped>, Element == [Wrapped] {
    if sources.isEmpty { return .just([]) }
    return Single(raw: Observable.zip(sources.map(\.source)))
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The result of `resultSelector` for the elements of all `sources`, in order, once every
  /// single succeeded; the first error otherwise. No sources give `resultSelector([])`.
  ///
  /// - Parameters:
  ///   - sources: The singles to run at the same time.
  ///   - resultSelector: Combines their elements; an error it throws fails the result.
  /// - Returns: A single of the combined result.
  public static func zip<Sources: Collection, Wrapped>(
    _ sources: Sources, resultSelector: @escaping ([Wrapped]) throws -> Element
  ) -> Single<Element> where Sources.Element == Single<Wrapped> {
    if sources.isEmpty {
      return Single.deferred { Single.just(try resultSelector([])) }
    }
    return Single(raw: Observable.zip(sources.map(\.source), resultSelector: resultSelector))
  }
}
