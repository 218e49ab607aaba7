import ReactorKit

/// One subscriber's subscription: the subscriber (weakly), its pipeline, and the native state
/// subscription that feeds it.
final class SubscriptionBox<State>: @unchecked Sendable {
  // Safety: `previous` and the pipeline are used only by the native subscription's observer,
  // which the native store calls serially; `disposable` and `isDisposed` are guarded by the
  // owning store's lock (see ``Store``).
  /// Identifies the subscriber, the key of the store's table.
  let identifier: ObjectIdentifier
  private weak var subscriber: AnyStoreSubscriber?
  private let pipeline: Subscription<State>
  private var previous: State?
  var disposable: Disposable?
  var isDisposed = false

  init(subscriber: AnyStoreSubscriber, pipeline: Subscription<State>) {
    identifier = ObjectIdentifier(subscriber)
    self.subscriber = subscriber
    self.pipeline = pipeline
  }

  /// Whether the subscriber is still alive.
  var hasSubscriber: Bool { subscriber != nil }

  /// Runs `state` through the pipeline; returns `false` (and delivers nothing) once the
  /// subscriber is gone.
  func receive(_ state: State) -> Bool {
    guard subscriber != nil else { return false }
    let oldState = previous
    previous = state
    pipeline.newValues(oldState: oldState, newState: state)
    return true
  }
}
