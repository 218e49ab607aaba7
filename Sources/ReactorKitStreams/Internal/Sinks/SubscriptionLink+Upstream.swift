extension SubscriptionLink {
  /// Stores `disposable`, the link's upstream subscription, in `upstream`, then publishes it by
  /// setting `assigned` in `state` (the way ``SingleAssignmentDisposable`` does): when
  /// `disposed` was set first, takes it back and disposes it at once; otherwise becomes its
  /// holder (``register(_:asHolderOf:)``). Returns `state` as it was before.
  ///
  /// The owner's rule for `upstream`: written here before `assigned` is published, then read and
  /// cleared only by whichever of this call and the disposal sets the second of `assigned` and
  /// `disposed`.
  @inlinable
  final func assignUpstream(
    _ disposable: Disposable, to upstream: ExclusiveSlotView<Disposable?>,
    state: UnsafeAtomic<Int>, assigned: Int, disposed: Int
  ) -> Int {
    upstream.value = disposable
    let previous = state.bitwiseOr(assigned, ordering: .acquiringAndReleasing).oldValue
    if previous & disposed != 0 {
      upstream.value = nil
      disposable.dispose()
    } else {
      SubscriptionLink.register(self, asHolderOf: disposable)
    }
    return previous
  }
}
