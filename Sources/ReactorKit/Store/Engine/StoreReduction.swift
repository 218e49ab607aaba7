/// One reduction as seen by package-internal observers (`TestStore`).
///
/// A class, so that the states it keeps live on the heap: a large inline state is never held
/// twice on the reducing thread's stack.
@usableFromInline
package final class StoreReduction<State> {
  /// The action that reached the reducer.
  @usableFromInline package let action: any Action
  /// The state before the reduction.
  @usableFromInline package let before: State
  /// The state after the reduction, once the engine has set it (before any observer sees the
  /// reduction).
  @usableFromInline var afterStorage: State?
  /// The tag the action's work item was submitted with; 0 for ordinary dispatches.
  @usableFromInline package let tag: UInt64

  /// The state after the reduction.
  @inlinable
  package var after: State {
    get {
      guard let afterStorage else {
        preconditionFailure("StoreReduction: read before the reduction ended")
      }
      return afterStorage
    }
    set { afterStorage = newValue }
  }

  @inlinable
  package init(action: any Action, before: State, after: State?, tag: UInt64) {
    self.action = action
    self.before = before
    self.afterStorage = after
    self.tag = tag
  }
}
