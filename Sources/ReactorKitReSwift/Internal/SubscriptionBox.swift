import ReactorKit

/// One subscriber's subscription: the subscriber (weakly) and its pipeline.
@usableFromInline
final class SubscriptionBox<State>: @unchecked Sendable {
  // Safety: `previous` and the pipeline are used only inside the native store's turn (the
  // join and `fanOut`), one state at a time; `isActive` is atomic.
  /// Identifies the subscriber, the key of the store's table.
  @usableFromInline let identifier: ObjectIdentifier
  @exclusivity(unchecked) @usableFromInline weak var subscriber: AnyStoreSubscriber?
  /// The subscriber while a state runs through the pipeline, for its last stage to call
  /// (one weak load per state).
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var delivering: AnyStoreSubscriber?
  @usableFromInline let pipeline: Subscription<State>
  @exclusivity(unchecked) @usableFromInline var previous: State?
  /// Cleared when the subscription ends, so a delivery already under way skips it.
  @usableFromInline let isActive = AtomicBox<Bool>(true)

  @inlinable
  init(subscriber: AnyStoreSubscriber, pipeline: Subscription<State>) {
    identifier = ObjectIdentifier(subscriber)
    unsafe self.subscriber = subscriber
    self.pipeline = pipeline
  }

  /// Whether the subscriber is still alive.
  @inlinable
  var hasSubscriber: Bool { unsafe subscriber != nil }

  /// Runs `state` through the pipeline; returns `false` (and delivers nothing) once the
  /// subscriber is gone.
  @inlinable
  func receive(_ state: State) -> Bool {
    guard isActive.load(ordering: .acquiring) else { return true }
    guard let subscriber = unsafe subscriber else { return false }
    let oldState = unsafe previous
    unsafe previous = state
    unsafe delivering = subscriber
    pipeline.newValues(oldState: oldState, newState: state)
    unsafe delivering = nil
    withExtendedLifetime(subscriber) {}
    return true
  }

  /// Ends the subscription: no further state is delivered.
  @inlinable
  func deactivate() {
    isActive.store(false, ordering: .releasing)
  }
}
