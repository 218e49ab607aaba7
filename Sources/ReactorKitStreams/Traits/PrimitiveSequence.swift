/// A sequence with a narrower grammar than ``Observable``, fixed by its `Trait`: ``Single``
/// (exactly one element or an error), ``Maybe`` (at most one element, or an error) and
/// ``Completable`` (no elements, completion or an error).
///
/// This is RxSwift's `PrimitiveSequence`. A trait wraps an observable that keeps the
/// trait's grammar; convert back with ``asObservable()`` (for example to return a request
/// from a reactor's `mutate`). Nothing runs until someone subscribes, and each subscription
/// runs the work again.
public struct PrimitiveSequence<Trait, Element> {
  let source: Observable<Element>

  /// Wraps `source`, which must already keep the trait's grammar.
  @usableFromInline init(raw source: Observable<Element>) {
    self.source = source
  }
}

extension PrimitiveSequence: Sendable {}

/// A type that can be converted to a ``PrimitiveSequence``; the anchor of the trait
/// operators, as in RxSwift (`extension PrimitiveSequenceType where Trait == SingleTrait`).
public protocol PrimitiveSequenceType {
  /// The trait: ``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``.
  associatedtype Trait

  /// The element type.
  associatedtype Element

  /// The sequence as a ``PrimitiveSequence``.
  var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
  /// Returns `self`.
  public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
  /// The trait as a plain ``Observable``: a ``Single`` emits its element and completes.
  public func asObservable() -> Observable<Element> { source }
}

// MARK: - Operators for every trait

extension PrimitiveSequence {
  /// Calls `factory` for each subscriber and subscribes to the trait it returns; an error
  /// thrown by `factory` fails the subscription.
  public static func deferred(
    _ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: Observable.deferred {
        do { return try factory().asObservable() } catch { return .error(error) }
      })
  }

  /// Delays every event (not an error) by `dueTime`; see
  /// ``ObservableType/delay(_:scheduler:)``.
  public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> PrimitiveSequence<Trait, Element>
  {
    PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
  }

  /// Subscribes to the trait `dueTime` after the subscription.
  public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> PrimitiveSequence<Trait, Element>
  {
    PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
  }

  /// Delivers the events on `scheduler`.
  public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.observe(on: scheduler))
  }

  /// Subscribes to (and disposes) the trait on `scheduler`.
  public func subscribe(on scheduler: ImmediateSchedulerType)
    -> PrimitiveSequence<Trait, Element>
  {
    PrimitiveSequence(raw: source.subscribe(on: scheduler))
  }

  /// Continues with the trait `handler` returns for the error instead of failing.
  public func `catch`(
    _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
  }

  /// Resubscribes after every error, forever.
  public func retry() -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.retry())
  }

  /// Subscribes at most `maxAttemptCount` times in all; the last error is forwarded.
  public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.retry(maxAttemptCount))
  }

  /// Resubscribes after an error once the sequence `notificationHandler` returns emits;
  /// see `retry(when:)` on `ObservableType`.
  public func retry<Trigger: ObservableConvertibleType>(
    when notificationHandler: @escaping (Observable<Swift.Error>) -> Trigger
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.retry(when: notificationHandler))
  }

  /// Fails with ``RxError/timeout`` when the trait has not finished within `dueTime`.
  public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> PrimitiveSequence<Trait, Element>
  {
    PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
  }

  /// Switches to `other` when the trait has not finished within `dueTime`.
  public func timeout(
    _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>,
    scheduler: SchedulerType
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
  }

  /// Prints the trait's events; see ``ObservableType/debug(_:trimOutput:file:line:function:)``.
  public func debug(
    _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file,
    line: UInt = #line, function: String = #function
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.debug(
        identifier, trimOutput: trimOutput, file: file, line: line, function: function))
  }
}

extension ObservableType where Element == Never {
  /// Converts the sequence, which has no elements, to a ``Completable`` that forwards its
  /// completion or error.
  public func asCompletable() -> Completable {
    Completable(raw: asObservable())
  }
}

extension ObservableType {
  /// Converts the sequence to a ``Single``: its only element, ``RxError/noElements`` when
  /// it completes empty, ``RxError/moreThanOneElement`` (at the second element) when it has
  /// more.
  public func asSingle() -> Single<Element> {
    Single(raw: asObservable().singleElement(allowEmpty: false))
  }

  /// Converts the sequence to a ``Maybe``: its only element or completion when it is empty;
  /// ``RxError/moreThanOneElement`` (at the second element) when it has more.
  public func asMaybe() -> Maybe<Element> {
    Maybe(raw: asObservable().singleElement(allowEmpty: true))
  }

  /// Converts the sequence to a ``Completable`` that ignores its elements and forwards its
  /// completion or error.
  ///
  /// Deprecated: RxSwift has `asCompletable()` only on sequences without elements, and this
  /// overload for every element type kept `asCompletable()` from inferring the element type
  /// (`scheduler.createColdObservable([.completed(20)]).asCompletable()` did not compile).
  @available(
    *, deprecated,
    message: "Ignore the elements first, as in RxSwift: ignoreElements().asCompletable()."
  )
  @_disfavoredOverload
  public func asCompletable() -> Completable {
    Completable(raw: ignoreElements())
  }

  /// The element of a one-element sequence, followed by completion when the source
  /// completes; see ``asSingle()`` and ``asMaybe()``.
  func singleElement(allowEmpty: Bool) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let state = OperatorState<Element?>(nil)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          if state.value == nil {
            state.value = element
          } else {
            sink.forwardTerminal(.error(RxError.moreThanOneElement))
          }
        case .error(let error):
          sink.forwardTerminal(.error(error))
        case .completed:
          if let element = state.value {
            sink.forwardNext(element)
            sink.forwardTerminal(.completed)
          } else if allowEmpty {
            sink.forwardTerminal(.completed)
          } else {
            sink.forwardTerminal(.error(RxError.noElements))
          }
        }
      }
    }
  }
}
