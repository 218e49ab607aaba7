import ReactorKitStreams

// The memory-level half of ActionCast.swift: copying an action's value out of its existential
// when the dynamic type is exactly the one asked for. A storage file (see
// scripts/check-unsafe-rooms.sh): the only place the action cast touches raw memory.

/// The value inside `action` when its dynamic type is exactly `A` (identity 0); otherwise
/// `nil` and the identity of its dynamic type (its metadata address). A metadata comparison
/// and a copy instead of a runtime cast: see `castAction(_:to:misses:)`.
@inlinable @inline(__always)
func exactAction<A>(_ action: any Action, as type: A.Type) -> (value: A?, identity: UInt) {
  unsafe withUnsafeTemporaryAllocation(of: A.self, capacity: 1) { buffer in
    let slot = unsafe buffer.baseAddress.unsafelyUnwrapped
    let identity = unsafe copyAction(action, ifOfType: A.self, into: UnsafeMutableRawPointer(slot))
    return identity == 0 ? (unsafe slot.move(), 0) : (nil, identity)
  }
}

/// Copies the value inside `action` to `destination` when its dynamic type is `type`, and
/// returns 0; otherwise returns the identity of its dynamic type (its metadata address) and
/// leaves `destination` alone.
///
/// Opening the existential here reads the dynamic type from the existential itself, and the
/// function mentions no other generic type, so its unspecialised code needs no generic
/// metadata lookup.
@usableFromInline
func copyAction(
  _ action: any Action, ifOfType type: Any.Type, into destination: UnsafeMutableRawPointer
)
  -> UInt
{
  func copy<Opened: Action>(_ value: Opened) -> UInt {
    let identity = UInt(bitPattern: ObjectIdentifier(Opened.self))
    guard identity == UInt(bitPattern: ObjectIdentifier(type)) else { return identity }
    unsafe destination.assumingMemoryBound(to: Opened.self).initialize(to: value)
    return 0
  }
  return copy(action)
}
