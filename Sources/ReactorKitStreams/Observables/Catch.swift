extension ObservableType {
  /// Continues with the sequence `handler` returns when the source fails.
  ///
  /// - Parameter handler: Turns the error into the sequence to continue with; a thrown
  ///   error ends the result with it.
  /// - Returns: The source's elements, then those of the replacement after an error.
  @inlinable
  public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let replacement = CatchReplacement()
      sink.extra = replacement
      // The sink's upstream: a source freed or disposed before it failed releases the sink.
      sink.setUpstream(
        source.subscribe(
          AnyObserver { event in
            guard case .error(let error) = event else {
              sink.forward(event)
              return
            }
            guard sink.isOpen else { return }
            do {
              let next = try handler(error)
              replacement.isSubscribed.store(true, ordering: .releasing)
              sink.disposeUpstream()
              replacement.current.disposable = next.subscribe(AnyObserver { sink.forward($0) })
            } catch {
              sink.forwardTerminal(.error(error))
            }
          }))
      return sink
    }
  }

  /// Completes with `element` instead of failing.
  ///
  /// - Parameter element: The last element emitted when the source fails.
  /// - Returns: The source's elements, then `element` and completion after an error.
  @inlinable
  public func catchAndReturn(_ element: Element) -> Observable<Element> {
    `catch` { _ in Observable<Element>.just(element) }
  }

  /// Subscribes to the sequences of `sequence` in order, moving to the next one each time
  /// one fails; the first to complete completes the result.
  ///
  /// When every sequence failed, the result fails with the last error; an empty `sequence`
  /// completes at once. Sequences that fail synchronously are handled in a loop, not by
  /// recursion.
  ///
  /// - Parameter sequence: The sequences to try, in order.
  /// - Returns: The elements of each sequence tried, up to the first one that completes.
  @inlinable
  public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element>
  where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
    Observable { observer in
      SequentialSink(observer, sources: sequence, mode: .retry).run()
    }
  }

  /// Resubscribes to the source every time it fails, without limit.
  ///
  /// - Returns: The source's elements across all attempts.
  @inlinable
  public func retry() -> Observable<Element> {
    retry(.max)
  }

  /// Resubscribes to the source when it fails, making at most `maxAttemptCount`
  /// subscriptions in total; the last error is forwarded.
  ///
  /// Sources that fail synchronously are retried in a loop, not by recursion.
  ///
  /// - Parameter maxAttemptCount: The number of subscriptions to make, first one included (at
  ///   least 0).
  /// - Returns: The source's elements across all attempts.
  @inlinable
  public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
    precondition(maxAttemptCount >= 0, "retry(_:) needs a count of at least 0.")
    let source = asObservable()
    return Observable { observer in
      SequentialSink(
        observer, sources: Swift.repeatElement(source, count: maxAttemptCount), mode: .retry
      ).run()
    }
  }
}

extension ObservableType {
  /// Resubscribes to the source after an error once the sequence returned by
  /// `notificationHandler` emits an element.
  ///
  /// `notificationHandler` runs once per subscription and receives the source's errors as
  /// a sequence. After each error the result waits for the handler's sequence: an element
  /// resubscribes the source, an error ends the result with that error, completion
  /// completes it. Errors that are not of type `Failure` end the result at once.
  ///
  /// - Parameter notificationHandler: Turns the errors into the retry triggers.
  /// - Returns: The source's elements across all attempts.
  @inlinable
  public func retry<Trigger: ObservableConvertibleType, Failure: Swift.Error>(
    when notificationHandler: @escaping (Observable<Failure>) -> Trigger
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      RetryWhenSink<Element, Failure, Trigger.Element>(observer, source: source)
        .run { notificationHandler($0).asObservable() }
    }
  }

  /// Resubscribes to the source after an error once the sequence returned by
  /// `notificationHandler` emits an element; the handler receives every error. See the
  /// overload with a typed `Failure` for the details.
  @inlinable
  public func retry<Trigger: ObservableConvertibleType>(
    when notificationHandler: @escaping (Observable<Swift.Error>) -> Trigger
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      RetryWhenSink<Element, Swift.Error, Trigger.Element>(observer, source: source)
        .run { notificationHandler($0).asObservable() }
    }
  }
}

/// Drives `retry(when:)`: one attempt at a time, each followed, after an error, by a wait
/// for the trigger sequence.
@usableFromInline
final class RetryWhenSink<Element, Failure: Swift.Error, Trigger>: @unchecked Sendable {
  // Safety: `running` and `again` are guarded by `lock`; the subjects and disposables
  // synchronise themselves. Attempts run one after another, so `sink` sees serial events.

  /// One subscription to the source and, after it failed, the wait for the trigger.
  @usableFromInline
  final class Attempt: Disposable, @unchecked Sendable {
    // Safety: the disposables synchronise themselves.
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline let trigger = SingleAssignmentDisposable()

    @inlinable init() {}

    @inlinable
    func dispose() {
      subscription.dispose()
      trigger.dispose()
    }
  }

  @usableFromInline let sink: Sink<Element>
  @usableFromInline let source: Observable<Element>
  @usableFromInline let errors = PublishSubject<Failure>()
  @usableFromInline let notifier = PublishSubject<Trigger>()
  @usableFromInline let notifierSubscription = SingleAssignmentDisposable()
  @usableFromInline let current = SerialDisposable()
  @usableFromInline let lock = Lock()
  @usableFromInline var running = false
  @usableFromInline var again = false

  @inlinable
  init(_ observer: AnyObserver<Element>, source: Observable<Element>) {
    sink = Sink(observer)
    self.source = source
    sink.extra = Disposables.create(current, notifierSubscription)
  }

  @inlinable
  func run(_ makeTriggers: (Observable<Failure>) -> Observable<Trigger>) -> Disposable {
    notifierSubscription.setDisposable(makeTriggers(errors.asObservable()).subscribe(notifier))
    resubscribe()
    return sink
  }

  /// Starts the next attempt; reentrant calls are looped, not nested.
  @inlinable
  func resubscribe() {
    loop(while: sink.isOpen) {
      let attempt = Attempt()
      current.disposable = attempt
      attempt.subscription.setDisposable(
        source.subscribe(AnyObserver { self.on($0, attempt: attempt) }))
      return true
    }
  }

  @inlinable
  func on(_ event: Event<Element>, attempt: Attempt) {
    switch event {
    case .next(let element):
      sink.forwardNext(element)
    case .completed:
      sink.forwardTerminal(.completed)
    case .error(let error):
      guard let failure = error as? Failure else {
        sink.forwardTerminal(.error(error))
        return
      }
      attempt.subscription.dispose()
      var waiting = true
      attempt.trigger.setDisposable(
        notifier.subscribe(
          AnyObserver { trigger in
            switch trigger {
            case .next:
              guard waiting else { return }
              waiting = false
              self.resubscribe()
            case .error(let error):
              self.sink.forwardTerminal(.error(error))
            case .completed:
              self.sink.forwardTerminal(.completed)
            }
          }))
      errors.onNext(failure)
    }
  }
}

/// The replacement subscription of ``ObservableType/catch(_:)``, its sink's extra resource.
/// When the source lets go of the sink without a terminal event (see ``SubscriptionLink``)
/// before any replacement was subscribed, nothing can feed the sink any more: it is released.
extension RetryWhenSink: ReentrantLoop {}

@usableFromInline
final class CatchReplacement: UpstreamReleaseHandling, @unchecked Sendable {
  // Safety: `isSubscribedSlot` is only accessed atomically; `current` synchronises itself.
  /// The storage of ``isSubscribed``; an ``AtomicSlot``, so the first stored property.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case isSubscribed }
  @usableFromInline var isSubscribedSlot = AtomicSlot(false)
  /// Whether a replacement sequence was subscribed (after the source failed).
  @inlinable var isSubscribed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.isSubscribed, of: self) }
  @usableFromInline let current = SerialDisposable()

  @inlinable
  init() {}

  @inlinable
  func dispose() { current.dispose() }

  @usableFromInline
  func upstreamReleased<Element>(of sink: Sink<Element>) {
    guard !isSubscribed.load(ordering: .acquiring) else { return }
    sink.releaseWithSource()
  }
}
