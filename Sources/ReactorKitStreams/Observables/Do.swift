extension ObservableType {
  /// Runs side effects for the events of every subscription and passes the events on
  /// unchanged.
  ///
  /// `on…` closures run before the event is forwarded, `after…` closures after it. A closure
  /// that throws ends the sequence with its error, except `afterError` and `afterCompleted`,
  /// whose errors are dropped because the sequence has already ended.
  ///
  /// - Parameters:
  ///   - onNext: Runs before each element is forwarded.
  ///   - afterNext: Runs after each element was forwarded.
  ///   - onError: Runs before the error is forwarded.
  ///   - afterError: Runs after the error was forwarded.
  ///   - onCompleted: Runs before completion is forwarded.
  ///   - afterCompleted: Runs after completion was forwarded.
  ///   - onSubscribe: Runs before the source is subscribed.
  ///   - onSubscribed: Runs after the source was subscribed.
  ///   - onDispose: Runs once the subscription ends, whether by a terminal event or by
  ///     disposal, after the source's subscription was disposed. When the source terminates
  ///     while it is being subscribed, it runs after `onSubscribed`, as in RxSwift.
  /// - Returns: The source's events.
  @inlinable
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
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      onSubscribe?()
      let disposal = DoDisposal(onDispose)
      // The `after…` closures of terminal events run right after the downstream delivery and
      // before `onDispose`, as in RxSwift, even when the subscriber disposes on completion.
      let sink = Sink<Element>(
        AnyObserver { event in
          guard event.isStopEvent else {
            observer.on(event)
            return
          }
          disposal.hold()
          observer.on(event)
          if case .error(let error) = event {
            try? afterError?(error)
          } else {
            try? afterCompleted?()
          }
          disposal.release()
        })
      sink.extra = disposal
      // A source that terminates while being subscribed is disposed when `run` returns;
      // `onDispose` waits for `onSubscribed`.
      disposal.hold()
      let subscription = sink.run(source) { event in
        guard sink.isOpen else { return }
        do {
          switch event {
          case .next(let element):
            try onNext?(element)
            sink.forwardNext(element)
            try afterNext?(element)
          case .error(let error):
            try onError?(error)
            sink.forwardTerminal(event)
          case .completed:
            try onCompleted?()
            sink.forwardTerminal(event)
          }
        } catch {
          sink.forwardTerminal(.error(error))
        }
      }
      onSubscribed?()
      disposal.release()
      return subscription
    }
  }
}

/// Runs `onDispose` once when disposed, but not while it is held (``hold()`` … ``release()``,
/// nested: while subscribing and while a terminal event is being delivered): then it runs at
/// the last ``release()``.
@usableFromInline
final class DoDisposal: Disposable, @unchecked Sendable {
  // Safety: all state is guarded by `lock`; the action runs outside it.
  @usableFromInline let lock = Lock()
  @usableFromInline var action: (() -> Void)?
  @usableFromInline var holds = 0
  @usableFromInline var requested = false

  @usableFromInline
  init(_ action: (() -> Void)?) {
    self.action = action
  }

  @usableFromInline
  func hold() {
    lock.withLock { holds += 1 }
  }

  @usableFromInline
  func release() {
    lock.lock()
    holds -= 1
    let action = requested && holds == 0 ? takeActionLocked() : nil
    lock.unlock()
    action?()
  }

  @usableFromInline
  func dispose() {
    lock.lock()
    requested = true
    let action = holds > 0 ? nil : takeActionLocked()
    lock.unlock()
    action?()
  }

  @usableFromInline
  func takeActionLocked() -> (() -> Void)? {
    defer { action = nil }
    return action
  }
}
