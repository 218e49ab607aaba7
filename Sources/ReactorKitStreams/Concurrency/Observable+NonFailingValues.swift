extension ObservableConvertibleType where Element: Sendable {
  /// The elements as an `AsyncStream`, for sequences that never fail (a store's or a
  /// reactor's states, `Infallible`, `Driver`/`Signal`): buffered without limit, finished when
  /// the sequence ends.
  ///
  /// Reading the property subscribes at once. Cancelling the iterating task, breaking out of
  /// the loop or dropping the stream disposes the subscription. An error, which the callers'
  /// sequences never send, finishes the stream like a completion.
  package var nonFailingValues: AsyncStream<Element> {
    let source = asObservable()
    return AsyncStream(bufferingPolicy: .unbounded) { continuation in
      let subscription = SingleAssignmentDisposable()
      continuation.onTermination = { _ in subscription.dispose() }
      subscription.setDisposable(
        source.subscribe { event in
          if case .next(let element) = event {
            continuation.yield(element)
          } else {
            continuation.finish()
          }
        })
    }
  }
}
