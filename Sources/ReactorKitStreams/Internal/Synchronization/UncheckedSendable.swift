/// Carries a value across a concurrency boundary where the library guarantees, by its own
/// serialisation, that the value is never used concurrently.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
  // Safety: callers only use this to hand a value to exactly one other thread.
  @usableFromInline package var value: Value

  @inlinable
  package init(_ value: Value) { self.value = value }
}
