/// What the upstream of ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)``
/// calls: `onNext` and the subscription's ``SubscriptionHandle``, in one object.
///
/// It is the only thing its event handler captures, so the handler needs no context of its
/// own, and an element reaches `onNext` with one atomic load (``SubscriptionHandle/isOpen``,
/// through the immutable `handle` reference) and the closure call.
///
/// Ownership: the sink holds its handle strongly and the handle never references the sink,
/// so no weak reference is needed in either direction and the sink lives exactly as long as
/// the upstream holds it. Once the upstream is disposed and lets go, `onNext` and what it
/// captures are released, whoever still holds the handle. Serial delivery upstream means
/// `on` is never entered concurrently.
@usableFromInline
final class SubscribeSink<Element>: @unchecked Sendable {
  // Safety: both stored properties are immutable; the handle synchronises itself.
  @usableFromInline let handle: SubscriptionHandle
  /// Not optional, so an element costs no `nil` check (a missing `onNext` is `{ _ in }`).
  @usableFromInline let onNext: (Element) -> Void

  @inlinable
  init(onNext: @escaping (Element) -> Void, handle: SubscriptionHandle) {
    self.handle = handle
    self.onNext = onNext
    Resources.incrementTotal()
  }

  deinit {
    Resources.decrementTotal()
  }

  /// Calls `onNext` for an element while the subscription is open; a terminal event ends
  /// the subscription (out of line, in the handle).
  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      if handle.isOpen { onNext(element) }
    case .error(let error):
      handle.terminate(error)
    case .completed:
      handle.terminate(nil)
    }
  }
}
