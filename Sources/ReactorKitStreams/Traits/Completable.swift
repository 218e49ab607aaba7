/// The trait of ``Completable``.
public enum CompletableTrait {}

/// A sequence without elements that completes or fails: the shape of a fire-and-forget
/// operation (a save, a delete).
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a ``Completable`` ends with.
@frozen
public enum CompletableEvent {
  /// The error; the completable is finished.
  case error(Swift.Error)
  /// Completion.
  case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
  /// The callback a ``Completable`` created with `create(subscribe:)` reports its result
  /// to.
  public typealias CompletableObserver = (CompletableEvent) -> Void

  /// Creates a completable from a subscribe function that reports one result.
  ///
  /// Only the first result counts; later ones are ignored.
  ///
  /// - Parameter subscribe: Starts the work, reports `.completed` or `.error(error)`, and
  ///   returns a disposable that cancels the work.
  /// - Returns: The completable.
  public static func create(
    subscribe: @escaping (@escaping CompletableObserver) -> Disposable
  ) -> Completable {
    Completable(
      raw: Observable.create { observer in
        subscribe { event in
          switch event {
          case .error(let error): observer.on(.error(error))
          case .completed: observer.on(.completed)
          }
        }
      })
  }

  /// Subscribes `observer` to the result.
  public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
    primitiveSequence.source.subscribe(
      onError: { observer(.error($0)) }, onCompleted: { observer(.completed) })
  }

  /// Subscribes closures for the result.
  ///
  /// An error without `onError` goes to ``Hooks/defaultErrorHandler``.
  ///
  /// - Parameters:
  ///   - onCompleted: Called on completion.
  ///   - onError: Called with the error.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that cancels the subscription.
  public func subscribe(
    onCompleted: (() -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    primitiveSequence.source.subscribe(
      onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly; nothing is called once it is
  /// freed.
  public func subscribe<Object: AnyObject>(
    with object: Object, onCompleted: ((Object) -> Void)? = nil,
    onError: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    primitiveSequence.source.subscribe(
      with: object, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// A completable that completes at once.
  public static func empty() -> Completable {
    Completable(raw: .empty())
  }

  /// A completable that fails with `error`.
  public static func error(_ error: Swift.Error) -> Completable {
    Completable(raw: .error(error))
  }

  /// A completable that never ends.
  public static func never() -> Completable {
    Completable(raw: .never())
  }

  /// Runs `second` after this completable completed; an error skips it.
  public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
    Single(raw: primitiveSequence.source.then(second.source))
  }

  /// Runs `second` after this completable completed; an error skips it.
  public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source.then(second.source))
  }

  /// Runs `second` after this completable completed; an error skips it.
  public func andThen(_ second: Completable) -> Completable {
    Completable(raw: primitiveSequence.source.then(second.source))
  }

  /// Subscribes to `second` after this completable completed; an error skips it.
  public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
    primitiveSequence.source.then(second)
  }

  /// Runs side effects for the completable's events.
  public func `do`(
    onError: ((Swift.Error) throws -> Void)? = nil,
    afterError: ((Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Completable {
    Completable(
      raw: primitiveSequence.source.do(
        onError: onError, afterError: afterError, onCompleted: onCompleted,
        afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed,
        onDispose: onDispose))
  }

  /// Runs the completables one after another; the first error ends the result.
  public static func concat<Sources: Sequence>(_ sources: Sources) -> Completable
  where Sources.Element == Completable {
    Completable(raw: Observable.concat(sources.map(\.source)))
  }

  /// Runs the completables one after another; the first error ends the result.
  public static func concat(_ sources: Completable...) -> Completable {
    concat(sources)
  }

  /// Runs the completables at the same time; completes when all completed, fails with the
  /// first error.
  public static func zip<Sources: Collection>(_ sources: Sources) -> Completable
  where Sources.Element == Completable {
    Completable(raw: Observable.merge(sources.map(\.source)))
  }

  /// Runs the completables at the same time; completes when all completed, fails with the
  /// first error.
  public static func zip(_ sources: Completable...) -> Completable {
    zip(sources)
  }

  /// Runs the completables at the same time; see `zip(_:)`.
  public static func merge<Sources: Collection>(_ sources: Sources) -> Completable
  where Sources.Element == Completable {
    zip(sources)
  }

  /// Runs the completables at the same time; see `zip(_:)`.
  public static func merge(_ sources: Completable...) -> Completable {
    zip(sources)
  }

  /// Returns the completable itself.
  public func asCompletable() -> Completable {
    primitiveSequence
  }
}

extension ObservableType {
  /// The source's termination (its elements dropped), then, after completion, `second`'s
  /// events.
  func then<Other>(_ second: Observable<Other>) -> Observable<Other> {
    let source = asObservable()
    let terminationOnly = Observable<Other> { observer in
      let sink = Sink(observer)
      return sink.run(source) { sink.forwardTerminal(from: $0) }
    }
    return Observable.concat(terminationOnly, second)
  }
}
