extension ObservableType {
  /// Drops the first `count` elements and forwards the rest.
  ///
  /// - Parameter count: How many elements to drop (at least 0).
  /// - Returns: The elements after the first `count`.
  @inlinable
  public func skip(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "skip(_:) needs a count of at least 0.")
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let remaining = OperatorState(count)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          if remaining.value > 0 {
            remaining.value -= 1
          } else {
            sink.forwardNext(element)
          }
        case .error, .completed:
          sink.forwardTerminal(event)
        }
      }
    }
  }

  /// Drops elements while `predicate` returns `true`, then forwards every later element
  /// without asking again.
  ///
  /// - Parameter predicate: Tells whether to keep dropping; a thrown error ends the sequence.
  /// - Returns: The elements from the first one failing `predicate` on.
  @inlinable
  public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let skipping = OperatorState(true)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          if skipping.value {
            do {
              skipping.value = try predicate(element)
            } catch {
              sink.forwardTerminal(.error(error))
              return
            }
            if skipping.value { return }
          }
          sink.forwardNext(element)
        case .error, .completed:
          sink.forwardTerminal(event)
        }
      }
    }
  }

  /// Drops elements until `other` emits an element, then forwards the rest.
  ///
  /// An error from `other` ends the result. Completion of this sequence is forwarded only
  /// once `other` has emitted; before that the subscription just ends, without an event (as
  /// in RxSwift). Delivery is serial even when both emit from different threads.
  ///
  /// - Parameter other: The sequence whose first element opens the gate.
  /// - Returns: The elements emitted after `other` emitted.
  @inlinable
  public func skip<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      SkipUntilSink<Element, Other.Element>(observer).run(source, other.asObservable())
    }
  }
}

/// Forwards the source once the other sequence emitted.
@usableFromInline
final class SkipUntilSink<Element, Other>: FanInSink<Element, Element, Bool>, @unchecked Sendable {
  // Safety: `state` (inherited; whether the other sequence emitted) is guarded by `lock`;
  // the disposables synchronise themselves.
  @usableFromInline let sourceSubscription = SingleAssignmentDisposable()
  @usableFromInline let otherSubscription = SingleAssignmentDisposable()

  @inlinable
  init(_ observer: AnyObserver<Element>) {
    super.init(observer, state: false) { $0 }
  }

  @inlinable
  func run(_ source: Observable<Element>, _ other: Observable<Other>) -> Disposable {
    sourceSubscription.setDisposable(source.subscribe(AnyObserver { self.sourceOn($0) }))
    if isStopped {
      otherSubscription.dispose()
      return self
    }
    otherSubscription.setDisposable(
      other.subscribe(
        AnyObserver { event in
          switch event {
          case .next:
            self.lock.withLock { self.state = true }
            self.otherSubscription.dispose()
          case .error(let error):
            self.on(.error(error))
          case .completed:
            self.otherSubscription.dispose()
          }
        }))
    return self
  }

  @inlinable
  func sourceOn(_ event: Event<Element>) {
    lock.lock()
    switch event {
    case .next, .completed:
      if state {
        onLocked(event)
      } else {
        lock.unlock()
        if event.isCompleted { dispose() }
      }
    case .error:
      onLocked(event)
    }
  }

  @usableFromInline
  override func releaseSources() {
    sourceSubscription.dispose()
    otherSubscription.dispose()
  }
}
