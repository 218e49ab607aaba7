/// A store that accepts actions: what a view or service that only dispatches depends on.
public protocol DispatchingStoreType {
  /// Dispatches `action` through the middleware to the reducer.
  func dispatch(_ action: Action)
}
