import ReactorKit

// The storage of the ReSwift facade's delivery, touched for every subscriber on every state:
// the fields read and written there are declared without the dynamic exclusivity check (one
// runtime call per access otherwise), each with the reason no two accesses overlap. The
// behaviour is in `Subscription.swift`, `SubscriptionBox.swift` and `Store.swift`.

/// A description of which states a subscriber receives: a pipeline of selections and filters
/// over the pairs of a store's previous and new state.
///
/// ``Store/subscribe(_:transform:)`` hands the closure a subscription of the whole state;
/// the closure returns the refined one:
///
/// ```swift
/// store.subscribe(self) { $0.select(\.counter).skipRepeats() }
/// ```
///
/// Each stage sees the previous and the new value (the previous one is `nil` on the first
/// delivery, when the subscriber receives the current state).
///
/// A subscription is built before the store starts it and is then driven by one store, one
/// state at a time: set ``observer`` only while building it.
public final class Subscription<State> {
  // Safety: `storedObserver` is set while the subscription is built, before a store drives
  // it, and then read by that store one state at a time: accesses never overlap.
  @exclusivity(unchecked) @usableFromInline
  var storedObserver: ((_ oldState: State?, _ newState: State) -> Void)?

  @inlinable
  init() {}

  /// Receives each pair of previous and new value this subscription lets through.
  @inlinable
  public var observer: ((_ oldState: State?, _ newState: State) -> Void)? {
    @inline(__always) get { unsafe storedObserver }
    @inline(__always) set { unsafe storedObserver = newValue }
  }
}

/// One subscriber's subscription: the subscriber (weakly) and its pipeline.
@usableFromInline
final class SubscriptionBox<State>: @unchecked Sendable {
  // Safety: `storedPrevious` and `storedIsDelivering` are used only inside the native store's
  // turn (the join and `fanOut`), one state at a time, so accesses never overlap; `isActive`
  // is atomic.
  /// Identifies the subscriber, the key of the store's table.
  @usableFromInline let identifier: ObjectIdentifier
  @usableFromInline weak let subscriber: AnyStoreSubscriber?
  @usableFromInline let pipeline: Subscription<State>
  /// Cleared when the subscription ends, so a delivery already under way skips it.
  @usableFromInline let isActive = AtomicBox<Bool>(true)
  @exclusivity(unchecked) @usableFromInline var storedPrevious: State?
  @exclusivity(unchecked) @usableFromInline var storedIsDelivering = false
  /// The box's index in its store's delivery list; guarded by the store's lock.
  @usableFromInline var deliverySlot = 0

  @inlinable
  init(subscriber: AnyStoreSubscriber, pipeline: Subscription<State>) {
    identifier = ObjectIdentifier(subscriber)
    self.subscriber = subscriber
    self.pipeline = pipeline
  }

  /// The last state run through the pipeline; `nil` before the first.
  @inlinable
  var previous: State? {
    @inline(__always) get { unsafe storedPrevious }
    @inline(__always) set { unsafe storedPrevious = newValue }
  }

  /// Whether a state is running through the pipeline (the box then holds the subscriber, so
  /// the pipeline's last stage may call it).
  @inlinable
  var isDelivering: Bool {
    @inline(__always) get { unsafe storedIsDelivering }
    @inline(__always) set { unsafe storedIsDelivering = newValue }
  }
}
