extension ObservableConvertibleType where Element: Sendable {
  /// The elements of the sequence as an `AsyncThrowingStream`, for `for try await` loops.
  ///
  /// Reading the property subscribes at once; elements are buffered until the loop reads
  /// them, so they cross from the producing thread to the iterating task and must be
  /// `Sendable`. The stream finishes when the sequence completes and throws its error when it
  /// fails. Cancelling the task that iterates, breaking out of the loop or dropping the
  /// stream disposes the subscription. In a cancelled task the loop throws
  /// `CancellationError` (after the elements already buffered), even when the sequence sent
  /// nothing, as RxSwift's `values` does.
  ///
  /// ```swift
  /// for try await state in reactor.state.values {
  ///   render(state)
  /// }
  /// ```
  public var values: AsyncThrowingStream<Element, Swift.Error> {
    let source = asObservable()
    return AsyncThrowingStream { continuation in
      let subscription = SingleAssignmentDisposable()
      continuation.onTermination = { termination in
        subscription.dispose()
        // Runs before the stream finishes on cancellation: the waiting iteration throws.
        if case .cancelled = termination { continuation.finish(throwing: CancellationError()) }
      }
      subscription.setDisposable(
        source.subscribe { event in
          switch event {
          case .next(let element): continuation.yield(element)
          case .error(let error): continuation.finish(throwing: error)
          case .completed: continuation.finish()
          }
        })
    }
  }
}

extension SharedSequence where Element: Sendable {
  /// The elements of the shared sequence as an `AsyncStream`; it cannot fail. See
  /// ``ObservableConvertibleType/values``.
  public var values: AsyncStream<Element> {
    asObservable().nonFailingValues
  }
}

extension ObservableType {
  /// Creates an observable whose subscriptions each run `body` in a new `Task`.
  ///
  /// `body` sends elements to the observer it receives; when it returns the sequence
  /// completes, and when it throws the sequence fails with the error. Disposing the
  /// subscription cancels the task (`body` sees `Task.isCancelled` and
  /// `CancellationError`s), and nothing is delivered after disposal. The observer may be
  /// called from several child tasks at once: events are delivered one at a time.
  ///
  /// ```swift
  /// let results = Observable<Page>.create { observer in
  ///   for try await page in api.pages(query) { observer.onNext(page) }
  /// }
  /// ```
  ///
  /// Subscribing returns at once; events arrive on the task's executor, so add
  /// ``observe(on:)`` when they must reach a particular scheduler.
  ///
  /// - Parameter body: The asynchronous work of one subscription.
  /// - Returns: An observable that runs `body` for each subscriber.
  public static func create(
    _ body: @escaping @Sendable (AnyObserver<Element>) async throws -> Void
  ) -> Observable<Element> {
    Observable { observer in
      let serial = SerialSink(Sink(observer), state: ())
      let cancel = SingleAssignmentDisposable()
      serial.sink.extra = cancel
      let forward = UncheckedSendable(
        AnyObserver<Element> { event in serial.transition { _, emit in emit(event) } })
      let task = Task {
        do {
          try await body(forward.value)
          forward.value.on(.completed)
        } catch {
          forward.value.on(.error(error))
        }
      }
      cancel.setDisposable(Disposables.create { task.cancel() })
      return serial.sink
    }
  }

  /// An observable that runs `body` in a new `Task` for each subscriber and emits its
  /// result, then completes; a thrown error becomes the sequence's error.
  ///
  /// Disposing the subscription cancels the task.
  ///
  /// - Parameter body: The asynchronous work producing the single element.
  /// - Returns: A one-element observable.
  public static func async(_ body: @escaping @Sendable () async throws -> Element)
    -> Observable<Element>
  {
    create { observer in observer.onNext(try await body()) }
  }

  /// An observable that iterates `sequence` in a new `Task` for each subscriber; see
  /// ``Observable/init(_:priority:)``.
  public static func from<Source: AsyncSequence & Sendable>(_ sequence: Source)
    -> Observable<Element>
  where Source.Element == Element {
    Observable(sequence)
  }
}

extension Observable {
  /// Creates an observable that iterates `sequence` in a new `Task` for each subscriber.
  ///
  /// Each element is sent as it arrives; the end of the sequence completes the observable
  /// and a thrown error fails it. Disposing the subscription cancels the task, which ends
  /// the iteration. A single-pass sequence (such as an `AsyncStream`) can be iterated by
  /// only one subscriber: share the observable (``ObservableType/share(replay:scope:)``)
  /// when several need it.
  ///
  /// - Parameters:
  ///   - sequence: The asynchronous sequence to iterate.
  ///   - priority: The priority of the iterating task; `nil` inherits the current one.
  public convenience init<Source: AsyncSequence & Sendable>(
    _ sequence: Source, priority: TaskPriority? = nil
  ) where Source.Element == Element {
    self.init { observer in
      let sink = Sink(observer)
      let cancel = SingleAssignmentDisposable()
      sink.extra = cancel
      let forward = UncheckedSendable(sink)
      let task = Task(priority: priority) {
        do {
          for try await element in sequence {
            forward.value.forwardNext(element)
          }
          forward.value.forwardTerminal(.completed)
        } catch {
          forward.value.forwardTerminal(.error(error))
        }
      }
      cancel.setDisposable(Disposables.create { task.cancel() })
      return sink
    }
  }
}

extension AsyncSequence where Self: Sendable {
  /// The sequence as an ``Observable`` that iterates it in a new `Task` for each
  /// subscriber; see ``Observable/init(_:priority:)``.
  ///
  /// - Parameter priority: The priority of the iterating task; `nil` inherits the current
  ///   one.
  public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
    Observable(self, priority: priority)
  }
}
