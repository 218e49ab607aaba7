/// A strong reference kept in one atomic word, set at most once and released exactly once:
/// the package's one way to hold "an object created on first use" (a reactor's action subject
/// and state stream) or "an object kept until disposal" (the core an entry retains).
///
/// The word holds the object's address, retained (`Unmanaged.passRetained`), or `0`:
/// - ``getOrMake(_:)`` returns the object, creating and publishing it on first use; when two
///   threads race, one object wins (acquiring and releasing compare-and-swap) and the other is
///   released at once.
/// - ``take()`` hands the reference to the caller exactly once (exchange to `0`), whoever
///   calls first: disposal and deinitialisation may race.
/// - ``releaseUnshared()`` releases it from a deinitialiser, where no other thread can touch
///   the word any more, with a plain load instead of an exchange.
///
/// A view of a word stored elsewhere (see ``UnsafeAtomic``); copies refer to the same word.
@frozen
@usableFromInline
package struct OnceReference<Object: AnyObject>: AtomicWordView, @unchecked Sendable {
  // Safety: the word is only accessed atomically; the object it refers to is retained by the
  // word until taken or released.
  /// The word: `0`, or the retained object's address.
  @usableFromInline package let word: UnsafeAtomic<UInt>

  /// A view of the reference kept in `word`; ``AtomicWordView`` finds the word in a slot or
  /// at an address.
  @inlinable @inline(__always)
  package init(_ word: UnsafeAtomic<UInt>) { self.word = word }

  /// The word that holds `object`, retained: the initial value of a reference set at once
  /// (`AtomicSlot(OnceReference.retaining(object))`).
  @inlinable
  package static func retaining(_ object: Object) -> UInt {
    unsafe UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
  }

  /// The object, or `nil` before it is set and after it is taken (acquiring).
  @inlinable
  package var object: Object? {
    guard let pointer = unsafe UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else {
      return nil
    }
    return unsafe Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The object, made with `make` and published by the first caller; a racing caller's object
  /// is released and the winner's returned.
  ///
  /// - Precondition: The reference is not taken yet (a taken reference would be made again).
  @inlinable
  package func getOrMake(_ make: () -> Object) -> Object {
    if let object { return object }
    let created = unsafe Unmanaged.passRetained(make())
    let (exchanged, existing) = unsafe word.compareExchange(
      expected: 0, desired: UInt(bitPattern: created.toOpaque()),
      ordering: .acquiringAndReleasing)
    if exchanged { return unsafe created.takeUnretainedValue() }
    unsafe created.release()
    return unsafe Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: existing)!)
      .takeUnretainedValue()
  }

  /// Takes the reference: the first caller receives the object (and with it the word's
  /// retain), later callers `nil`.
  @inlinable
  package func take() -> Object? {
    let bits = word.exchange(0, ordering: .acquiringAndReleasing)
    guard let pointer = unsafe UnsafeRawPointer(bitPattern: bits) else { return nil }
    return unsafe Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue()
  }

  /// Releases the reference, if still held, where no other thread can use the word any more
  /// (a deinitialiser): a plain load, no read-modify-write. The word keeps its value.
  @inlinable
  package func releaseUnshared() {
    guard let pointer = unsafe UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else {
      return
    }
    unsafe Unmanaged<Object>.fromOpaque(pointer).release()
  }
}
