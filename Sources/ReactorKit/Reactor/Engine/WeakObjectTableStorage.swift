import Dispatch
import ReactorKitStreams

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(ObjectiveC)
  import ObjectiveC
#endif

// The memory of a `WeakObjectTable` (WeakObjectTable.swift): the one place it reaches raw
// memory. The stripes (a mutex and a `WeakTableStripe` each) live in one allocation; a
// stripe's slots in another; the storages the slots hold are retained by hand, so a slot is
// two words and a lookup retains nothing; a scan collects what it releases on the stack. Each
// type here is `@safe`: what it hands out is plain Swift, and the table's logic needs no
// `unsafe`.

/// A storage a slot holds, retained by the slot (one word, no reference counting on copy).
@safe
struct WeakTableEntry {
  private let reference: Unmanaged<OwnedStorage>

  /// An entry that retains `storage` until ``release()`` or ``releaseDead()``.
  init(retaining storage: OwnedStorage) {
    unsafe reference = .passRetained(storage)
  }

  /// The storage.
  var storage: OwnedStorage { unsafe reference.takeUnretainedValue() }

  /// Whether the entry holds `storage` itself.
  func holds(_ storage: OwnedStorage) -> Bool {
    unsafe reference.toOpaque() == Unmanaged.passUnretained(storage).toOpaque()
  }

  /// Whether the storage belongs to `owner`, which the caller holds (retains neither on
  /// Linux).
  func belongs(to owner: AnyObject) -> Bool {
    unsafe reference._withUnsafeGuaranteedRef { $0.isOwned(by: owner) }
  }

  /// The storage's owner, or `nil` once it has been deinitialised (a weak load).
  var owner: AnyObject? {
    unsafe reference._withUnsafeGuaranteedRef { $0.ownerObject }
  }

  /// The storage's ``OwnedStorage/sweepMark``, read with relaxed ordering.
  var sweepMark: UInt8 {
    unsafe reference._withUnsafeGuaranteedRef { $0.sweepMark.load(ordering: .relaxed) }
  }

  /// Tells the storage its owner is gone, then drops the slot's reference. Call without the
  /// table's locks: the storage releases what it holds, which may run user code.
  func releaseDead() {
    unsafe reference.takeRetainedValue().ownerDidDeinitialize()
  }

  /// Drops the slot's reference (the table's end).
  func release() {
    unsafe reference.release()
  }
}

/// One slot of a stripe's open-addressing table: an owner's key and its entry, or `nil`.
@safe
struct WeakTableSlot {
  var key: UInt
  var entry: WeakTableEntry?
}

/// A stripe's slots: a power-of-two number of them, or none before the first insertion.
@safe
struct WeakTableSlots {
  private var base: UnsafeMutablePointer<WeakTableSlot>?
  /// The number of slots: a power of two, or 0.
  private(set) var capacity = 0

  /// No slots.
  init() {}

  /// `capacity` free slots.
  init(capacity: Int) {
    precondition(capacity > 0 && capacity & (capacity - 1) == 0)
    let base = UnsafeMutablePointer<WeakTableSlot>.allocate(capacity: capacity)
    unsafe base.initialize(repeating: WeakTableSlot(key: 0, entry: nil), count: capacity)
    unsafe self.base = unsafe base
    self.capacity = capacity
  }

  /// The slot at `index` (`0..<capacity`).
  subscript(index: Int) -> WeakTableSlot {
    get {
      assert(index >= 0 && index < capacity)
      return unsafe base.unsafelyUnwrapped[index]
    }
    nonmutating set {
      assert(index >= 0 && index < capacity)
      unsafe base.unsafelyUnwrapped[index] = newValue
    }
  }

  /// Frees the slots (not the entries they hold).
  func deallocate() {
    unsafe base?.deallocate()
  }
}

/// What one stripe keeps besides its mutex. Accessed only with the stripe's mutex held.
struct WeakTableStripe {
  var slots = WeakTableSlots()
  /// `64 - log2(capacity)`: the slot hash is the top bits of what the stripe index leaves.
  var shift = 64
  var count = 0
  var insertionsSinceScan = 0
  /// The keys of the owners the sweeps watch (``OwnedStorage/sweepMark`` is not 0); a key may
  /// appear twice.
  var watched: [UInt] = []
  /// The timer of the stripe's Linux sweeps, made on first use.
  var sweeper: DispatchSourceTimer?
  /// When the next sweep is due (`DispatchTime.uptimeNanoseconds`), or 0 when none is.
  var nextSweep: UInt64 = 0
  /// Whether the next sweep is due within the shortest delay: a newly watched owner needs no
  /// earlier one (spares it reading the clock).
  var isSweepSoon = false
  /// Whether a sweep is running.
  var isSweeping = false
  /// The number of Linux sweeps run so far (for tests).
  var sweepCount = 0
  #if DEBUG
    /// Called by scans with each owner found alive, the mutex held (for tests).
    var scanFoundLiveOwner: ((AnyObject) -> Void)?
  #endif
}

/// The stripes of a table, each a mutex and a ``WeakTableStripe``, in one allocation whose
/// stripes start on separate cache lines.
@safe
struct WeakTableStripes {
  private let base: UnsafeMutableRawPointer
  /// The number of stripes, a power of two.
  let count: Int

  /// The bytes of one stripe: its mutex, then its state, rounded up to whole cache lines.
  private static var stride: Int {
    let lineSize = 64
    let stateOffset = Self.stateOffset
    let size = stateOffset + MemoryLayout<WeakTableStripe>.size
    return (size + lineSize - 1) / lineSize * lineSize
  }

  /// Where a stripe's state starts, after its mutex.
  private static var stateOffset: Int {
    let alignment = MemoryLayout<WeakTableStripe>.alignment
    return unsafe (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
  }

  /// `count` empty stripes.
  init(count: Int) {
    precondition(count > 0 && count & (count - 1) == 0)
    self.count = count
    let base = UnsafeMutableRawPointer.allocate(
      byteCount: count * Self.stride, alignment: 64)
    for index in 0..<count {
      let stripe = unsafe base + index * Self.stride
      _ = unsafe EmbeddedLock.initialize(at: stripe)
      _ = unsafe (stripe + Self.stateOffset).initializeMemory(
        as: WeakTableStripe.self, to: WeakTableStripe())
    }
    unsafe self.base = base
  }

  private func mutex(_ index: Int) -> EmbeddedLock {
    unsafe EmbeddedLock((base + index * Self.stride).assumingMemoryBound(to: pthread_mutex_t.self))
  }

  private func state(_ index: Int) -> UnsafeMutablePointer<WeakTableStripe> {
    unsafe (base + index * Self.stride + Self.stateOffset).assumingMemoryBound(
      to: WeakTableStripe.self)
  }

  /// Locks stripe `index`.
  func lock(_ index: Int) { mutex(index).lock() }

  /// Unlocks stripe `index`.
  func unlock(_ index: Int) { mutex(index).unlock() }

  /// The state of stripe `index`; use it with that stripe locked.
  subscript(index: Int) -> WeakTableStripe {
    unsafeAddress { unsafe UnsafePointer(state(index)) }
    nonmutating unsafeMutableAddress { unsafe state(index) }
  }

  /// Destroys the stripes and frees their memory (the slots must be freed first).
  func deallocate() {
    for index in 0..<count {
      mutex(index).destroy()
      _ = unsafe state(index).deinitialize(count: 1)
    }
    unsafe base.deallocate()
  }
}

/// Room on the stack for what a scan or a sweep takes out under a stripe's mutex and releases
/// after it: dead entries, and the owners it found alive (a strong reference each, taken to
/// tell them alive, which must not be dropped under the mutex: the owner's deinitialiser may
/// use the table).
@safe
struct WeakTableScanBatch {
  private let dead: UnsafeMutableBufferPointer<WeakTableEntry>
  private let live: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>
  private var deadCount = 0
  private var liveCount = 0

  private init(
    dead: UnsafeMutableBufferPointer<WeakTableEntry>,
    live: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>
  ) {
    unsafe self.dead = unsafe dead
    unsafe self.live = unsafe live
  }

  /// How many dead entries one pass collects before releasing them.
  private static var deadCapacity: Int { 16 }

  /// How many live owners one pass holds: 960 bytes, so that `withUnsafeTemporaryAllocation`
  /// takes them from the stack (up to 1,024 bytes; more would cost a heap allocation).
  private static var liveCapacity: Int { 120 }

  /// Runs `body` with an empty batch on the stack. `body` must leave it empty
  /// (``releaseAll()``).
  static func withBatch<Result>(_ body: (inout WeakTableScanBatch) -> Result) -> Result {
    unsafe withUnsafeTemporaryAllocation(of: WeakTableEntry.self, capacity: deadCapacity) {
      dead in
      unsafe withUnsafeTemporaryAllocation(
        of: Unmanaged<AnyObject>.self, capacity: liveCapacity
      ) { live in
        var batch = unsafe WeakTableScanBatch(dead: dead, live: live)
        let result = body(&batch)
        assert(batch.isEmpty)
        return result
      }
    }
  }

  /// Whether another dead entry or live owner might not fit.
  var isFull: Bool { unsafe deadCount == dead.count || liveCount == live.count }

  /// Whether nothing is held.
  var isEmpty: Bool { deadCount == 0 && liveCount == 0 }

  /// Holds a dead entry, taken out of its slot.
  mutating func appendDead(_ entry: WeakTableEntry) {
    unsafe dead[deadCount] = entry
    deadCount += 1
  }

  /// Holds a strong reference to an owner found alive.
  mutating func appendLive(_ owner: AnyObject) {
    unsafe live[liveCount] = Unmanaged.passRetained(owner)
    liveCount += 1
  }

  /// Drops the owners and releases the dead entries. Call without the stripe's mutex.
  mutating func releaseAll() {
    for index in 0..<liveCount { unsafe live[index].release() }
    liveCount = 0
    for index in 0..<deadCount { unsafe dead[index].releaseDead() }
    deadCount = 0
  }
}

extension OwnedStorage {
  /// The owner's key in the table (its address), as the table assigned it.
  final var tableKey: UInt { unsafe storageKey }

  /// Makes the storage `owner`'s, under `key`; the table calls it, under the stripe's mutex,
  /// before handing the storage out.
  final func assign(to owner: AnyObject, key: UInt) {
    #if canImport(ObjectiveC)
      unsafe storageOwner = owner
    #else
      assert(unsafe storageOwner == nil, "a storage belongs to one owner")
      unsafe storageOwner = UnownedAddress(retainingMemoryOf: owner)
    #endif
    unsafe storageKey = key
  }
}

/// Ties `sentinel` to `owner`'s life (an associated object under `table`'s address), so that
/// it runs when the owner is deinitialised (Apple platforms).
#if canImport(ObjectiveC)
  func associate(_ sentinel: DeinitSentinel, with owner: AnyObject, for table: AnyObject) {
    unsafe objc_setAssociatedObject(
      owner, Unmanaged.passUnretained(table).toOpaque(), sentinel, .OBJC_ASSOCIATION_RETAIN)
  }
#endif
