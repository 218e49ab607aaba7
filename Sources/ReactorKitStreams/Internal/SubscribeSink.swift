import Synchronization

/// The subscription made by ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)``:
/// the closures, the grammar state and the upstream subscription in one object.
///
/// It is the only thing its event handler captures, so the handler needs no context of its
/// own, and an element reaches `onNext` through one object: fewer allocations per
/// subscription than a ``Sink`` with observer closures, and fewer memory accesses per element
/// (which matters when a store notifies thousands of subscribers). The caller gets
/// ``handle``, which lets go of the sink once the subscription ended.
@usableFromInline
final class SubscribeSink<Element>: HeldSubscription, Cancelable, @unchecked Sendable {
  // Safety: `state` is atomic; the closures are immutable; `upstream` synchronises itself.
  // Serial delivery upstream means `on` is never entered concurrently.
  @usableFromInline let onNext: ((Element) -> Void)?
  @usableFromInline let onError: ((Swift.Error) -> Void)?
  @usableFromInline let onCompleted: (() -> Void)?
  @usableFromInline let onDisposed: (() -> Void)?
  /// 0 while open; bit 1 once a terminal event was accepted; bit 2 once disposed.
  @usableFromInline let state = Atomic<Int>(0)
  @usableFromInline let upstream = SingleAssignmentDisposable()
  /// The disposable the subscriber holds, told when the subscription ends by itself.
  @usableFromInline weak let handle: SubscriptionHandle?

  @inlinable
  init(
    onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?,
    onCompleted: (() -> Void)?, onDisposed: (() -> Void)?, handle: SubscriptionHandle
  ) {
    self.handle = handle
    self.onNext = onNext
    self.onError = onError
    self.onCompleted = onCompleted
    self.onDisposed = onDisposed
    super.init()
    Resources.incrementTotal()
  }

  deinit {
    Resources.decrementTotal()
  }

  @inlinable
  var isDisposed: Bool { state.load(ordering: .acquiring) & 2 != 0 }

  /// Calls the closure for `event`; nothing after a terminal event or disposal. A terminal
  /// event ends the subscription.
  @inlinable
  func on(_ event: Event<Element>) {
    if case .next(let element) = event {
      if state.load(ordering: .acquiring) == 0 { onNext?(element) }
    } else {
      onTerminal(event)
    }
  }

  /// Handles a terminal event; out of line so the per-element path stays small.
  @inlinable
  @inline(never)
  func onTerminal(_ event: Event<Element>) {
    switch event {
    case .next:
      break
    case .error(let error):
      guard close() else { return }
      onError?(error)
      handle?.subscriptionEnded()
      dispose()
    case .completed:
      guard close() else { return }
      onCompleted?()
      handle?.subscriptionEnded()
      dispose()
    }
  }

  /// Accepts a terminal event if nothing closed the subscription before.
  @inlinable
  func close() -> Bool {
    state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
  }

  /// Stops delivery, releases the upstream subscription and calls `onDisposed`, once.
  @inlinable
  override func dispose() {
    let previous = state.bitwiseOr(2, ordering: .acquiringAndReleasing).oldValue
    guard previous & 2 == 0 else { return }
    upstream.dispose()
    onDisposed?()
  }
}
