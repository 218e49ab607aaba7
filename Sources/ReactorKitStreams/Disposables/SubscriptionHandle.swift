import Synchronization

/// A subscription that a ``SubscriptionHandle`` holds: the handle disposes it through this
/// class's method table, without a dynamic cast to `Disposable` (a conformance lookup, some
/// 700 instructions).
@usableFromInline
class HeldSubscription: @unchecked Sendable {
  // Safety: no state; subclasses state their own.
  @inlinable
  init() {}

  /// Ends the subscription. Subclasses override it.
  @usableFromInline
  func dispose() {}
}

/// The disposable returned by `subscribe(onNext:onError:onCompleted:onDisposed:)`.
///
/// It holds the subscription until the subscription ends, by a terminal event or by
/// ``dispose()``, and then lets go of it. A finished subscription kept in a dispose bag or a
/// property therefore no longer keeps its closures, and what they capture, alive: the cycle
/// `owner → bag → subscription → closure → owner` ends with the subscription, as in RxSwift.
@usableFromInline
final class SubscriptionHandle: Cancelable, @unchecked Sendable {
  // Safety: `slot` is atomic. It holds `empty`, `ended`, or the bits of a retained
  // subscription, which exactly one `exchange` takes out (and releases).
  @usableFromInline static var empty: UInt { 0 }
  @usableFromInline static var ended: UInt { 1 }

  @usableFromInline let slot = Atomic<UInt>(SubscriptionHandle.empty)

  @inlinable
  init() {}

  deinit {
    // Dropping the handle does not end the subscription; it only releases the reference.
    Self.release(slot.load(ordering: .acquiring))
  }

  /// Keeps `subscription` until the subscription ends; does nothing when it already ended.
  @inlinable
  func hold(_ subscription: HeldSubscription) {
    let bits = UInt(bitPattern: Unmanaged.passRetained(subscription).toOpaque())
    let (exchanged, _) = slot.compareExchange(
      expected: Self.empty, desired: bits, ordering: .acquiringAndReleasing)
    if !exchanged { Self.release(bits) }
  }

  /// Lets go of the subscription, which ended by itself.
  @inlinable
  func subscriptionEnded() {
    Self.release(slot.exchange(Self.ended, ordering: .acquiringAndReleasing))
  }

  /// Whether the subscription ended or was disposed.
  @inlinable
  var isDisposed: Bool { slot.load(ordering: .acquiring) == Self.ended }

  /// Disposes the subscription and lets go of it.
  @inlinable
  func dispose() {
    let bits = slot.exchange(Self.ended, ordering: .acquiringAndReleasing)
    guard bits > Self.ended else { return }
    Unmanaged<HeldSubscription>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
      .takeRetainedValue().dispose()
  }

  @usableFromInline
  static func release(_ bits: UInt) {
    guard bits > ended else { return }
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
  }
}
