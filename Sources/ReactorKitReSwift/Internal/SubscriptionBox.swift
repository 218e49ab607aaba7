import ReactorKit

// The class and its fields are declared in `SubscriptionStorage.swift`.

extension SubscriptionBox {
  /// Whether the subscriber is still alive.
  @inlinable
  var hasSubscriber: Bool { subscriber != nil }

  /// Runs `state` through the pipeline; returns `false` (and delivers nothing) once the
  /// subscriber is gone.
  ///
  /// The pipeline's last stage calls the subscriber only while ``isDelivering``: this call
  /// holds the subscriber meanwhile (one weak load per state).
  @inlinable
  func receive(_ state: State) -> Bool {
    guard isActive.load(ordering: .acquiring) else { return true }
    guard let subscriber else { return false }
    let oldState = previous
    previous = state
    isDelivering = true
    pipeline.newValues(oldState: oldState, newState: state)
    isDelivering = false
    withExtendedLifetime(subscriber) {}
    return true
  }

  /// Ends the subscription: no further state is delivered.
  @inlinable
  func deactivate() {
    isActive.store(false, ordering: .releasing)
  }
}
