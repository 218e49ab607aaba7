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
      let current = SerialDisposable()
      sink.extra = current
      let single = SingleAssignmentDisposable()
      current.disposable = single
      single.setDisposable(
        source.subscribe(
          AnyObserver { event in
            guard case .error(let error) = event else {
              sink.forward(event)
              return
            }
            guard sink.isOpen else { return }
            do {
              let replacement = try handler(error)
              current.disposable = replacement.subscribe(AnyObserver { sink.forward($0) })
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
  /// - Parameter maxAttemptCount: The number of subscriptions to make, first one included.
  /// - Returns: The source's elements across all attempts.
  @inlinable
  public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
    precondition(maxAttemptCount >= 0, "retry(_:) needs a count of at least 0.")
    let source = asObservable()
    return Observable { observer in
      SequentialSink(
        observer, sources: repeatElement(source, count: maxAttemptCount), mode: .retry
      ).run()
    }
  }
}
