/// The one core of `take(until:)`, `skip(until:)` and their time-based forms: a source
/// forwarded through a gate that a second sequence (`other`, or a timer) moves with its first
/// element.
///
/// - ``Behavior/take``: the gate starts open; `other`'s element completes the result.
///   `other` is subscribed first, so one that emits at once lets nothing through.
/// - ``Behavior/skip(completesWhileClosed:)``: the gate starts closed and `other`'s element
///   opens it; the source is subscribed first. A source completing while the gate is closed
///   completes the result (time-based `skip`) or just ends the subscription without an
///   event (`skip(until:)`, as in RxSwift).
///
/// An error from either ends the result; `other` completing without an element changes
/// nothing. Delivery is serial even when both emit from different threads.
@usableFromInline
final class GateSink<Element, Other>: TwoSourceSink<Element, Element, Bool>, @unchecked Sendable {
  // Safety: `state` (inherited; whether the gate is open) is guarded by `lock`; `behavior` is
  // immutable; the disposables synchronise themselves.
  @usableFromInline
  enum Behavior {
    case take
    case skip(completesWhileClosed: Bool)

    /// Whether the gate starts open (`take`).
    @inlinable var startsOpen: Bool {
      if case .take = self { return true }
      return false
    }
  }

  @usableFromInline let behavior: Behavior

  @inlinable
  init(_ observer: AnyObserver<Element>, _ behavior: Behavior) {
    self.behavior = behavior
    super.init(observer, state: behavior.startsOpen) { $0 }
  }

  @inlinable
  func run(_ source: Observable<Element>, _ other: Observable<Other>) -> Disposable {
    // `take` subscribes `other` first, `skip` the source (see the type's documentation).
    run(
      source, other, secondFirst: behavior.startsOpen, onFirst: { self.sourceOn($0) },
      onSecond: { self.otherOn($0) })
  }

  @inlinable
  func sourceOn(_ event: Event<Element>) {
    lock.lock()
    switch event {
    case .next:
      if state {
        onAndUnlock(event)
      } else {
        lock.unlock()
      }
    case .completed:
      if state {
        onAndUnlock(event)
      } else if case .skip(completesWhileClosed: true) = behavior {
        onAndUnlock(event)
      } else {
        lock.unlock()
        dispose()
      }
    case .error:
      onAndUnlock(event)
    }
  }

  @inlinable
  func otherOn(_ event: Event<Other>) {
    switch event {
    case .next:
      if case .take = behavior {
        on(.completed)
      } else {
        lock.withLock { state = true }
        secondSubscription.dispose()
      }
    case .error(let error):
      on(.error(error))
    case .completed:
      secondSubscription.dispose()
    }
  }
}
