/// A state copied to the heap, for a plugin that keeps a state past the call it read it in
/// (the logger's before and after, a history's entries).
///
/// A state may be large and stored inline (a struct of many fields): a plugin's local copy of
/// it, kept across `next(action)` and captured by a closure, would sit on the dispatching
/// thread's stack next to the reduction's own. Reading it straight into a box keeps it there
/// only while it is read (issue 29, item 5: a 256 KiB state on a 512 KiB stack).
@usableFromInline
final class HeapState<State>: @unchecked Sendable {
  // Safety: `value` is immutable, so the box may be read from any thread (the logger's queue,
  // a history's readers).
  @usableFromInline let value: State

  /// Boxes a copy of `state`, copied straight into the box (no temporary on the stack).
  @usableFromInline @inline(never)
  init(copying state: borrowing State) {
    value = copy state
  }

  /// Boxes the state `read` returns.
  @inline(never)
  init(_ read: () -> State) {
    value = read()
  }

  /// The state as `Any`, copied from the box into the existential's own heap box (no copy
  /// on the stack), with `redactions` applied when there are any.
  @inline(never)
  func redacted(by redactions: [Redaction<State>]) -> Any {
    redactions.isEmpty ? value : redactions.redacting(value)
  }
}
