/// One reduction as seen by package-internal observers (`TestStore`).
@usableFromInline
package struct StoreReduction<State> {
  /// The action that reached the reducer.
  @usableFromInline package let action: any Action
  /// The state before the reduction.
  @usableFromInline package let before: State
  /// The state after the reduction.
  @usableFromInline package let after: State
  /// The tag the action's work item was submitted with; 0 for ordinary dispatches.
  @usableFromInline package let tag: UInt64

  @inlinable
  package init(action: any Action, before: State, after: State, tag: UInt64) {
    self.action = action
    self.before = before
    self.after = after
    self.tag = tag
  }
}
