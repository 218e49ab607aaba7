/// The trait of ``Maybe``.
public enum MaybeTrait {}

/// A sequence of at most one element: an element, completion without one, or an error.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a ``Maybe`` ends with.
@frozen
public enum MaybeEvent<Element> {
  /// The element; the maybe is finished.
  case success(Element)
  /// The error; the maybe is finished.
  case error(Swift.Error)
  /// Completion without an element.
  case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// The callback a ``Maybe`` created with `create(subscribe:)` reports its result to.
  public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

  /// Creates a maybe from a subscribe function that reports one result.
  ///
  /// Only the first result counts; later ones are ignored.
  ///
  /// - Parameter subscribe: Starts the work, reports `.success(element)`, `.completed` or
  ///   `.error(error)`, and returns a disposable that cancels the work.
  /// - Returns: The maybe.
  public static func create(
    subscribe: @escaping (@escaping MaybeObserver) -> Disposable
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.create { observer in
        subscribe { event in
          switch event {
          case .success(let element):
            observer.on(.next(element))
            observer.on(.completed)
          case .error(let error):
            observer.on(.error(error))
          case .completed:
            observer.on(.completed)
          }
        }
      })
  }

  /// Subscribes `observer` to the result.
  public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
    let succeeded = OperatorState(false)
    return primitiveSequence.source.subscribe(
      onNext: { element in
        succeeded.value = true
        observer(.success(element))
      },
      onError: { observer(.error($0)) },
      onCompleted: { if !succeeded.value { observer(.completed) } })
  }

  /// Subscribes closures for the result.
  ///
  /// An error without `onError` goes to ``Hooks/defaultErrorHandler``.
  ///
  /// - Parameters:
  ///   - onSuccess: Called with the element.
  ///   - onError: Called with the error.
  ///   - onCompleted: Called when the maybe completes without an element.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that cancels the subscription.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    let succeeded = OperatorState(false)
    return primitiveSequence.source.subscribe(
      onNext: { element in
        succeeded.value = true
        onSuccess?(element)
      },
      onError: onError,
      onCompleted: onCompleted.map { onCompleted in
        { if !succeeded.value { onCompleted() } }
      },
      onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly; nothing is called once it is
  /// freed.
  public func subscribe<Object: AnyObject>(
    with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
    onError: ((Object, Swift.Error) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    subscribe(
      onSuccess: weaklyBound(object, onSuccess), onError: weaklyBound(object, onError),
      onCompleted: weaklyBound(object, onCompleted), onDisposed: weaklyBound(object, onDisposed))
  }

  /// A maybe of `element`.
  public static func just(_ element: Element) -> Maybe<Element> {
    Maybe(raw: .just(element))
  }

  /// A maybe of `element`, delivered on `scheduler`.
  public static func just(_ element: Element, scheduler: ImmediateSchedulerType)
    -> Maybe<Element>
  {
    Maybe(raw: .just(element, scheduler: scheduler))
  }

  /// A maybe that completes without an element.
  public static func empty() -> Maybe<Element> {
    Maybe(raw: .empty())
  }

  /// A maybe that fails with `error`.
  public static func error(_ error: Swift.Error) -> Maybe<Element> {
    Maybe(raw: .error(error))
  }

  /// A maybe that never ends.
  public static func never() -> Maybe<Element> {
    Maybe(raw: .never())
  }

  /// Transforms the element.
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
    Maybe(raw: primitiveSequence.source.map(transform))
  }

  /// Transforms the element; a `nil` result completes without an element.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?)
    -> Maybe<Result>
  {
    Maybe(raw: primitiveSequence.source.compactMap(transform))
  }

  /// Keeps the element when `predicate` accepts it.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source.filter(predicate))
  }

  /// Continues with the maybe `selector` returns for the element.
  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>)
    -> Maybe<Result>
  {
    Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
  }

  /// Emits `default` when the maybe completes without an element.
  public func ifEmpty(default: Element) -> Single<Element> {
    Single(raw: primitiveSequence.source.ifEmpty(switchTo: .just(`default`)))
  }

  /// Continues with `other` when the maybe completes without an element.
  public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
  }

  /// Continues with `other` when the maybe completes without an element.
  public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
    Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
  }

  /// Replaces an error with `element`.
  public func catchAndReturn(_ element: Element) -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source.catchAndReturn(element))
  }

  /// Runs side effects for the maybe's events, as `do` on `ObservableType` does.
  public func `do`(
    onNext: ((Element) throws -> Void)? = nil,
    afterNext: ((Element) throws -> Void)? = nil,
    onError: ((Swift.Error) throws -> Void)? = nil,
    afterError: ((Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.do(
        onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
        onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
        onSubscribed: onSubscribed, onDispose: onDispose))
  }

  /// The maybe as a ``Single``: fails with ``RxError/noElements`` when it completes
  /// without an element.
  public func asSingle() -> Single<Element> {
    primitiveSequence.source.asSingle()
  }

  /// The maybe as a ``Completable`` that ignores the element.
  public func asCompletable() -> Completable {
    Completable(raw: primitiveSequence.source.ignoreElements())
  }

  /// Returns the maybe itself.
  public func asMaybe() -> Maybe<Element> {
    primitiveSequence
  }
}
