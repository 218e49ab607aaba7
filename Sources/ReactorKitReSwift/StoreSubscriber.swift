/// A subscriber of a ``Store`` of any state type: what ``Store/unsubscribe(_:)`` takes.
public protocol AnyStoreSubscriber: AnyObject {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Delivers `state` to the subscriber when it has the subscriber's state type.
  func _newState(state: Any)
}

/// An object that receives a ``Store``'s state, or the part a ``Subscription`` selects.
///
/// The store holds subscribers weakly: a subscriber that is freed is removed.
public protocol StoreSubscriber: AnyStoreSubscriber {
  /// The state, or selected part of it, the subscriber receives.
  associatedtype StoreSubscriberStateType

  /// Receives the current state at once when subscribing, then each new state the
  /// subscription lets through, on the thread that is processing the store's actions.
  func newState(state: StoreSubscriberStateType)
}

extension StoreSubscriber {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Casts `state` to ``StoreSubscriberStateType`` and delivers it; ignores other types.
  public func _newState(state: Any) {
    if let typedState = state as? StoreSubscriberStateType {
      newState(state: typedState)
    }
  }
}
