/// The mutable per-subscription state of a single-source operator (a counter, an
/// accumulator, the previous key), kept in an ``ExclusiveCell``.
///
/// A `var` captured by an operator's event closure is checked for exclusive access at run
/// time on every element (`swift_beginAccess`, about a third of a `scan` stage); access
/// through the cell is not. Only the upstream's serial events touch the value.
@usableFromInline
final class OperatorState<Value>: @unchecked Sendable {
  // Safety: only the serial event handler of one subscription reads or writes the value.
  @usableFromInline let cell: ExclusiveCell<Value>

  @inlinable
  init(_ value: Value) { cell = ExclusiveCell(value) }

  /// The state.
  @inlinable
  var value: Value {
    get { cell.value }
    _modify { yield &cell.value }
  }
}
