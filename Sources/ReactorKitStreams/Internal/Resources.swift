/// Counts live stream resources (observables, subscriptions, sinks) so tests can prove that
/// everything a test created was released.
///
/// Read ``total`` before a test and compare after its dispose bags are gone; equal numbers
/// mean no subscription leaked. Counting is always on and costs one relaxed atomic add per
/// resource, never per element. Observables that hold only constant values (`just`, `empty`)
/// are not counted: they own nothing to release, and a reactor makes one per action.
///
/// Not API: the package's own test support (`ResourceTestCase`) reads it; apps check leaks
/// with `ResourceTestCase`.
@usableFromInline
package enum Resources {
  /// A process-wide word of the C atomics target: no lazy initialiser to check per access.
  @inlinable static var counter: UnsafeAtomic<Int> { .globalWord(0) }

  /// The number of live resources right now.
  package static var total: Int { counter.load(ordering: .relaxed) }

  /// Records that a resource was created. Call once per resource, balanced by
  /// ``decrementTotal()``. For the package's own resources only.
  @inlinable
  package static func incrementTotal() {
    counter.wrappingAdd(1, ordering: .relaxed)
  }

  /// Records that a resource was released. For the package's own resources only.
  @inlinable
  package static func decrementTotal() {
    counter.wrappingSubtract(1, ordering: .relaxed)
  }
}
