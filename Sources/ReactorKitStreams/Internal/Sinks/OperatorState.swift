/// The mutable per-subscription state of a single-source operator (a counter, an
/// accumulator, the previous key), kept behind a pointer.
///
/// A `var` captured by an operator's event closure is checked for exclusive access at run
/// time on every element (`swift_beginAccess`, about a third of a `scan` stage); access
/// through this pointer is not. Only the upstream's serial events touch the value.
@safe
@usableFromInline
final class OperatorState<Value>: @unchecked Sendable {
  // Safety: only the serial event handler of one subscription reads or writes the value.
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  @inlinable
  init(_ value: Value) {
    unsafe pointer = .allocate(capacity: 1)
    unsafe pointer.initialize(to: value)
  }

  deinit {
    unsafe pointer.deinitialize(count: 1)
    unsafe pointer.deallocate()
  }

  /// The state.
  @inlinable
  var value: Value {
    get { unsafe pointer.pointee }
    _modify { yield unsafe &pointer.pointee }
  }
}
