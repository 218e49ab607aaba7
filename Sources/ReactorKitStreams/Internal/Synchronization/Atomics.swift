import CReactorKitAtomics

// Atomics without `import Synchronization` (whose `Atomic` needs macOS 15 / iOS 18), over the
// C11 `<stdatomic.h>` functions of the `CReactorKitAtomics` target.
//
// An atomic needs memory at a fixed address that Swift itself never reads or writes.
// `Synchronization.Atomic` gets it from a layout attribute only the standard library may use;
// here the memory is explicit, and ``UnsafeAtomic`` is a view of it with the operations and the
// spelling of `Synchronization.Atomic`. Where the memory lives, cheapest first:
//
// - in a raw allocation the owner already has (an engine's state block): `UnsafeAtomic(at:)`
//   over a word of it, initialised with ``UnsafeAtomic/initialize(at:to:)``;
// - at the head of the owning object: ``AtomicSlot`` stored properties declared first, viewed
//   with `UnsafeAtomic(_:of:)` and an ``AtomicSlotIndex`` (no allocation; see ``AtomicSlot`` for the rules);
// - in an object of its own, ``AtomicBox``: a `let`-able class, one allocation (tests,
//   globals, locals captured by closures, cold paths);
// - in one of the C target's process-wide words, ``UnsafeAtomic/globalWord(_:)``: counters
//   with no lazy initialiser to check per access (``Resources``).
//
// Not an `@exclusivity(unchecked) var` of a non-copyable cell with `mutating` operations: that
// gets a stable address (a mutating call on a stored property passes the property's own
// address) at no cost, but the thread sanitizer reports every such `inout` access of a class
// property as a "Swift access race" (the access is recorded before the atomic operation that
// orders it), so every client running the thread sanitizer would see false reports.

/// A view of an atomic value stored at a fixed address: the operations and spelling of
/// `Synchronization.Atomic` (`load(ordering:)`, `compareExchange(expected:desired:ordering:)`,
/// `wrappingAdd(_:ordering:)`, …), over memory somebody else owns.
///
/// Everything inlines to the one machine instruction each operation names. The memory must
/// be initialised before the first operation (``initialize(at:to:)``, ``AtomicSlot``) and only
/// ever accessed through views while any thread may use it.
@safe
@frozen
@usableFromInline
package struct UnsafeAtomic<Value: AtomicValue>: @unchecked Sendable {
  // Safety: a pointer to memory that is only accessed atomically.
  /// The value's storage.
  @usableFromInline package let address: UnsafeMutablePointer<Value.AtomicStorage>

  /// A view of the atomic value stored at `address`.
  @inlinable @inline(__always)
  package init(at address: UnsafeMutablePointer<Value.AtomicStorage>) {
    unsafe self.address = unsafe address
  }

  /// A view of the atomic value stored at `address` (suitably aligned for
  /// `Value.AtomicStorage`).
  @inlinable @inline(__always)
  package init(at address: UnsafeMutableRawPointer) {
    unsafe self.address = unsafe address.assumingMemoryBound(to: Value.AtomicStorage.self)
  }

  /// Initialises the storage at `address` to `value` and returns a view of it.
  @inlinable
  @discardableResult
  package static func initialize(at address: UnsafeMutableRawPointer, to value: Value) -> Self {
    unsafe Self(
      at: address.initializeMemory(as: Value.AtomicStorage.self, to: Value.encodeAtomic(value)))
  }

  /// Reads the value.
  @inlinable @inline(__always)
  package func load(ordering: AtomicLoadOrdering) -> Value {
    unsafe Value.decodeAtomic(Value.AtomicStorage.atomicLoad(address, ordering.order))
  }

  /// Writes `desired`.
  @inlinable @inline(__always)
  package func store(_ desired: Value, ordering: AtomicStoreOrdering) {
    unsafe Value.AtomicStorage.atomicStore(address, Value.encodeAtomic(desired), ordering.order)
  }

  /// Writes `desired` and returns the value it replaced.
  @inlinable @inline(__always)
  @discardableResult
  package func exchange(_ desired: Value, ordering: AtomicUpdateOrdering) -> Value {
    unsafe Value.decodeAtomic(
      Value.AtomicStorage.atomicExchange(address, Value.encodeAtomic(desired), ordering.order))
  }

  /// Writes `desired` if the value is `expected`.
  ///
  /// A failed exchange reads with the ordering's load part (`.acquiringAndReleasing` fails
  /// `.acquiring`, `.releasing` fails `.relaxed`), as in `Synchronization.Atomic`.
  ///
  /// - Returns: Whether it wrote, and the value found (`expected` when it wrote).
  @inlinable @inline(__always)
  @discardableResult
  package func compareExchange(
    expected: Value, desired: Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) {
    compareExchange(
      expected: expected, desired: desired, successOrdering: ordering,
      failureOrdering: ordering.failureOrdering)
  }

  /// Writes `desired` if the value is `expected`, with separate orderings for success and
  /// failure.
  ///
  /// - Returns: Whether it wrote, and the value found (`expected` when it wrote).
  @inlinable @inline(__always)
  @discardableResult
  package func compareExchange(
    expected: Value, desired: Value, successOrdering: AtomicUpdateOrdering,
    failureOrdering: AtomicLoadOrdering
  ) -> (exchanged: Bool, original: Value) {
    let expectedStorage = Value.encodeAtomic(expected)
    let found = unsafe Value.AtomicStorage.atomicCompareExchange(
      address, expectedStorage, Value.encodeAtomic(desired), successOrdering.order,
      failureOrdering.order)
    return (found == expectedStorage, Value.decodeAtomic(found))
  }
}

// The integer operations (`wrappingAdd`, `add`, `bitwiseOr`, …) are generated, in
// `Atomics+Operations.swift`, with their `AtomicBox` forwarders.

extension UnsafeAtomic where Value == Int {
  /// A view of word `index` (0 to 3) of the C atomics target's process-wide words
  /// (`rk_atomic_global_words`): static storage, so no lazy initialiser is checked per access.
  /// Each word has one owner; ``Resources`` uses word 0.
  @inlinable @inline(__always)
  package static func globalWord(_ index: Int32) -> Self {
    unsafe Self(at: rk_atomic_global_word(index))
  }
}

// MARK: - Storage in the owning object

/// One word of atomic storage at the head of an object: declare the object's slots as its
/// first stored properties, list them once in the object's ``AtomicSlotIndex`` enum, and
/// reach them with `UnsafeAtomic(Slots.x, of: self)` (or a ``Gate``, a ``OnceReference``).
///
/// ```swift
/// final class Sink: @unchecked Sendable {
///   // Safety: `stateSlot` is only accessed atomically, through `state`.
///   @usableFromInline enum Slots: Int, AtomicSlotIndex { case state }
///   // Atomic slots first, in the order of `Slots`.
///   @usableFromInline var stateSlot = AtomicSlot(0)
///   @usableFromInline var upstream: Disposable?
///
///   @inlinable var state: UnsafeAtomic<Int> { UnsafeAtomic(Slots.state, of: self) }
/// }
/// ```
///
/// The rule: slot `n` is the `n`-th word of the object's stored properties, superclass
/// properties first (Swift lays a class's stored properties out in declaration order, each at
/// its alignment, right after the object header). `AtomicSlotLayoutTests` checks every
/// production owner against the real field offsets (``atomicSlotLayoutProblems(of:slots:)``),
/// so a wrong index fails a test instead of corrupting memory. Swift never reads or writes a
/// slot after the initialiser: it is a `var` only because the memory changes.
@frozen
@usableFromInline
package struct AtomicSlot: ~Copyable, @unchecked Sendable {
  // Safety: only accessed atomically, through `UnsafeAtomic(_:of:)`.
  @usableFromInline var bits: Int

  /// Creates a slot holding `value`.
  @inlinable
  package init<Value: AtomicValue>(_ value: Value) where Value.AtomicStorage == Int {
    bits = Value.encodeAtomic(value)
  }
}

/// The one declaration of an object's ``AtomicSlot``s (and ``ExclusiveSlot``s): an `Int` enum
/// whose cases are the slots in declaration order, each naming the stored property `<case>Slot`
/// and numbering its (first) word.
///
/// Raw values count up from the first case, so only the first is ever written: `0` in a class
/// with no superclass, the superclass's word count in a subclass (`case state = 1` under
/// ``SubscriptionLink``). `AtomicSlotLayoutTests` checks each owner.
@usableFromInline
package protocol AtomicSlotIndex: RawRepresentable, CaseIterable where RawValue == Int {}

extension UnsafeAtomic where Value.AtomicStorage == Int {
  /// A view of the ``AtomicSlot`` `slot` of `object` (see there for the rules).
  @inlinable @inline(__always)
  package init<Index: AtomicSlotIndex>(_ slot: Index, of object: AnyObject) {
    unsafe self.init(
      at: _getUnsafePointerToStoredProperties(object) + slot.rawValue &* MemoryLayout<Int>.stride)
  }
}

/// A `let`-able atomic value in an object of its own.
///
/// For atomics with no owner to live in: globals, locals captured by closures, tests, cold
/// paths. Costs an allocation and an indirection; on a hot path, use an ``AtomicSlot`` in the
/// owning object or a word of the owner's raw allocation.
@usableFromInline
package final class AtomicBox<Value: AtomicValue>: @unchecked Sendable {
  // Safety: `storage` is only accessed atomically, through `atomic`.
  // The only stored property, so it starts right after the object header.
  @usableFromInline var storage: Value.AtomicStorage

  /// Creates a box holding `value`.
  @inlinable
  package init(_ value: Value) { storage = Value.encodeAtomic(value) }

  /// The view of the value.
  @inlinable @inline(__always)
  package var atomic: UnsafeAtomic<Value> {
    unsafe UnsafeAtomic(at: _getUnsafePointerToStoredProperties(self))
  }

  /// Reads the value.
  @inlinable
  package func load(ordering: AtomicLoadOrdering) -> Value { atomic.load(ordering: ordering) }

  /// Writes `desired`.
  @inlinable
  package func store(_ desired: Value, ordering: AtomicStoreOrdering) {
    atomic.store(desired, ordering: ordering)
  }

  /// Writes `desired` and returns the value it replaced.
  @inlinable
  @discardableResult
  package func exchange(_ desired: Value, ordering: AtomicUpdateOrdering) -> Value {
    atomic.exchange(desired, ordering: ordering)
  }

  /// Writes `desired` if the value is `expected` (see ``UnsafeAtomic``).
  @inlinable
  @discardableResult
  package func compareExchange(
    expected: Value, desired: Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) {
    atomic.compareExchange(expected: expected, desired: desired, ordering: ordering)
  }
}

// MARK: - Orderings

// The three orderings (`AtomicLoadOrdering`, `AtomicStoreOrdering`, `AtomicUpdateOrdering`)
// are generated, in `Atomics+Operations.swift`.

extension AtomicUpdateOrdering {
  /// The ordering of the read of a compare-and-exchange with this ordering that fails (C11
  /// allows no releasing part there).
  @inlinable
  var failureOrdering: AtomicLoadOrdering {
    switch order {
    case .acquireRelease: .acquiring
    case .release: .relaxed
    default: AtomicLoadOrdering(order)
    }
  }
}

// MARK: - Values

/// A type an ``UnsafeAtomic`` can hold, stored as one of the integer types the C functions
/// work on (``AtomicStorage``): a word (`Int`) for `Int`, `UInt`, `Bool` and `UInt8`; `Int64`
/// for `Int64` and `UInt64`.
@usableFromInline
package protocol AtomicValue {
  associatedtype AtomicStorage: AtomicStorageInteger
  static func encodeAtomic(_ value: Self) -> AtomicStorage
  static func decodeAtomic(_ storage: AtomicStorage) -> Self
}

/// An integer ``AtomicValue`` as wide as its storage, so that arithmetic and bitwise
/// operations on the storage are those on the value: `Int`, `UInt`, `Int64`, `UInt64` (not
/// `UInt8`, stored in a word, which would not wrap at 256).
@usableFromInline
package protocol AtomicInteger: AtomicValue, FixedWidthInteger {}

extension Int: AtomicInteger {}
extension UInt: AtomicInteger {}
extension Int64: AtomicInteger {}
extension UInt64: AtomicInteger {}

// The storage integers (`AtomicStorageInteger`: `Int`, `Int64`) and the values' encodings
// are generated, in `Atomics+Operations.swift`.
