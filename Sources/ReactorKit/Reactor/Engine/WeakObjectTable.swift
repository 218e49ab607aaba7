import Dispatch
import ReactorKitStreams

#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// A map from objects to storage that does not retain the objects: the library's replacement
/// for associated objects.
///
/// Entries are keyed by the owner's address; each storage remembers its owner weakly
/// (``OwnedStorage/storageOwner``), so an entry whose owner has died is recognised even if a new
/// object later reuses the address. Dead entries are released
/// - at once on Apple platforms, where a sentinel associated with the owner reports its
///   deinitialisation;
/// - when an object that owns a sentinel the table handed out (``DeinitSentinel``) goes away;
/// - when an insertion reuses the key of a dead owner, and by a scan for dead owners that
///   insertions run after the table has grown by half since the last scan (amortised O(1));
/// - by ``purge()``;
/// - on Linux, which offers no deinitialisation hook for arbitrary classes, by sweeps that look
///   only at the owners *used* lately: inserted, looked up, or reported by ``touch(_:)``. Each
///   such owner is looked at ``sweepDelays``-many times, 50 ms, 150 ms, 350 ms, 750 ms, 1.55 s
///   and 3.15 s after it was last used, then no more until it is used again. So a table whose
///   owners are not used costs nothing (no timer fires), the work of a sweep is proportional to
///   the owners used lately, and an owner freed within about 3 s of its last use is released
///   within 50 ms to 1.6 s; one freed later, by the next insertion scan or ``purge()``.
///
/// All methods are thread-safe. The table never calls back into owners, and it releases
/// storage (``OwnedStorage/ownerDidDeinitialize()``) outside its lock.
///
/// The entries live in an open-addressing hash table (linear probing, backward-shift
/// deletion) behind a pointer: a lookup hashes the address with one multiplication and pays
/// no dynamic exclusivity check, and dead entries are collected on the stack, not in an array.
@safe
@usableFromInline
final class WeakObjectTable: @unchecked Sendable {
  // Safety: everything behind `state` is guarded by `lock`.

  /// One slot: the owner's address and its storage (retained), or `nil` when the slot is free.
  @safe
  private struct Slot {
    var key: UInt
    var value: Unmanaged<OwnedStorage>?
  }

  @safe
  private struct State {
    var slots: UnsafeMutablePointer<Slot>?
    /// A power of two, or 0 before the first insertion.
    var capacity = 0
    /// `64 - log2(capacity)`: the hash is the top bits of the key times a constant.
    var shift = 64
    var count = 0
    var insertionsSinceScan = 0
    /// The keys of the owners the sweeps watch (``OwnedStorage/sweepMark`` is not 0); a key
    /// may appear twice.
    var watched: [UInt] = []
    /// The timer of the Linux sweeps, made on first use.
    var sweeper: DispatchSourceTimer?
    /// When the next sweep is due (`DispatchTime.uptimeNanoseconds`), or 0 when none is.
    var nextSweep: UInt64 = 0
    /// Whether the next sweep is due within the shortest delay: a newly watched owner needs
    /// no earlier one (spares it reading the clock).
    var isSweepSoon = false
    /// Whether a sweep is running.
    var isSweeping = false
    /// The number of Linux sweeps run so far (for tests).
    var sweepCount = 0
    #if DEBUG
      /// Called by scans with each owner found alive, the lock held (for tests).
      var scanFoundLiveOwner: ((AnyObject) -> Void)?
    #endif
  }

  /// How many dead entries one pass under the lock collects before releasing them.
  private static var batch: Int { 16 }

  /// How many live owners one pass under the lock holds before releasing them (see
  /// `removeDeadAndUnlock(plus:skipping:)`). 960 bytes: `withUnsafeTemporaryAllocation` takes
  /// them from the stack (up to 1,024 bytes; more would cost a heap allocation per scan).
  private static var liveBatch: Int { 120 }

  /// The fewest insertions between two scans for dead owners started by an insertion.
  static var minimumInsertionsPerScan: Int { 8 }

  /// The delays, in milliseconds, between the last use of an owner and the Linux sweeps that
  /// look at it: after the last one, the owner is no longer watched.
  let sweepDelays: [UInt64]

  private let lock = Lock()
  private let state: UnsafeMutablePointer<State>

  /// Creates an empty table.
  ///
  /// - Parameter sweepDelays: The delays between the last use of an owner and the Linux
  ///   sweeps that look at it, in milliseconds.
  init(sweepDelays: [UInt64] = [50, 100, 200, 400, 800, 1_600]) {
    precondition(!sweepDelays.isEmpty && sweepDelays.count < Int(UInt8.max))
    self.sweepDelays = sweepDelays
    unsafe state = .allocate(capacity: 1)
    unsafe state.initialize(to: State())
  }

  deinit {
    if let slots = unsafe state.pointee.slots {
      for index in unsafe 0..<state.pointee.capacity {
        unsafe slots[index].value?.release()
      }
      unsafe slots.deallocate()
    }
    unsafe state.pointee.sweeper?.cancel()
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }

  /// The number of entries, dead or alive (for tests).
  var count: Int { lock.withLock { unsafe state.pointee.count } }

  /// The storage of `owner`, or `nil` when none was created.
  @usableFromInline
  func value(for owner: AnyObject) -> OwnedStorage? {
    let key = Self.key(of: owner)
    lock.lock()
    guard let index = indexLocked(of: key) else {
      lock.unlock()
      return nil
    }
    let value = unsafe state.pointee.slots![index].value!.takeUnretainedValue()
    let isOwners = unsafe value.storageOwner === owner
    if isOwners { watchLocked(value) }
    lock.unlock()
    return isOwners ? value : nil
  }

  /// The storage of `owner`, created with `make` if it has none.
  ///
  /// - Parameter make: Builds the storage. Runs with the table locked, so it must not call
  ///   user code or touch the table.
  @usableFromInline
  func value(for owner: AnyObject, orInsert make: () -> OwnedStorage) -> OwnedStorage {
    let key = Self.key(of: owner)
    lock.lock()
    var stale: Unmanaged<OwnedStorage>?
    if let index = indexLocked(of: key) {
      let existing = unsafe state.pointee.slots![index].value!
      if unsafe existing._withUnsafeGuaranteedRef({ unsafe $0.storageOwner === owner }) {
        let value = unsafe existing.takeUnretainedValue()
        watchLocked(value)
        lock.unlock()
        return value
      }
      // It belonged to a dead object at the same address.
      unsafe stale = unsafe existing
      removeLocked(at: index)
    }
    let value = make()
    unsafe value.storageOwner = owner
    unsafe value.storageKey = key
    insertLocked(key: key, value: value)
    watchLocked(value)
    unsafe state.pointee.insertionsSinceScan += 1
    // Amortised: a scan visits every entry, so it runs after as many insertions as half the
    // entries, and not before `minimumInsertionsPerScan` (a small table would otherwise be
    // scanned on every insertion).
    let scan =
      unsafe state.pointee.insertionsSinceScan * 2 >= state.pointee.count
      && state.pointee.insertionsSinceScan >= Self.minimumInsertionsPerScan
    if !scan {
      lock.unlock()
      attachSentinel(to: owner, value: value)
      if let stale = unsafe stale { unsafe Self.release(stale) }
      return value
    }
    // `removeDeadAndUnlock` unlocks.
    unsafe removeDeadAndUnlock(plus: stale, skipping: key)
    attachSentinel(to: owner, value: value)
    return value
  }

  /// Notes that the owner of `storage` was used, or may have been freed: the Linux sweeps look
  /// at it soon (see ``WeakObjectTable``). Costs one atomic load when they already watch it.
  @usableFromInline
  func touch(_ storage: OwnedStorage) {
    #if !canImport(ObjectiveC)
      if storage.sweepMark.load(ordering: .relaxed) == 1 { return }
      lock.lock()
      if let index = unsafe indexLocked(of: storage.storageKey),
        unsafe state.pointee.slots![index].value!.toOpaque()
          == Unmanaged.passUnretained(storage).toOpaque()
      {
        watchLocked(storage)
      }
      lock.unlock()
    #endif
  }

  /// Removes the entry for `key` if it still holds `value`, and releases `value`.
  ///
  /// Used when the owner of `value` is known to be gone.
  func remove(_ value: OwnedStorage, forKey key: ObjectIdentifier) {
    let key = UInt(bitPattern: key)
    lock.lock()
    var removed: Unmanaged<OwnedStorage>?
    if let index = indexLocked(of: key),
      unsafe state.pointee.slots![index].value!.toOpaque()
        == Unmanaged.passUnretained(value).toOpaque()
    {
      unsafe removed = unsafe state.pointee.slots![index].value
      removeLocked(at: index)
    }
    lock.unlock()
    if let removed = unsafe removed { unsafe Self.release(removed) }
  }

  /// Releases the storage of every owner that has been deinitialised.
  @usableFromInline
  func purge() {
    lock.lock()
    unsafe removeDeadAndUnlock(plus: nil, skipping: nil)
  }

  // MARK: - Releasing

  /// Calls `ownerDidDeinitialize` on a storage taken out of the table and drops the table's
  /// reference. Call without the lock.
  private static func release(_ storage: Unmanaged<OwnedStorage>) {
    unsafe storage.takeRetainedValue().ownerDidDeinitialize()
  }

  /// Removes the entries of dead owners and releases them, with `extra` (a dead entry
  /// already removed). Call with the lock held; the lock is released on return.
  ///
  /// Dead entries are collected on the stack, a batch at a time, and released outside the
  /// lock. So are the owners found alive: telling whether an owner is alive takes a strong
  /// reference to it, and if another thread lets go of the owner meanwhile, dropping that
  /// reference runs the owner's deinitialiser, which may use this table (a view's dispose
  /// bag does), so it must not run with the lock held.
  ///
  /// - Parameter skipped: The key of an owner known to be alive (the caller's), not looked at.
  private func removeDeadAndUnlock(plus extra: Unmanaged<OwnedStorage>?, skipping skipped: UInt?) {
    unsafe withUnsafeTemporaryAllocation(of: Unmanaged<OwnedStorage>.self, capacity: Self.batch) {
      dead in
      unsafe withUnsafeTemporaryAllocation(of: Unmanaged<AnyObject>.self, capacity: Self.liveBatch)
      {
        live in
        unsafe removeDeadAndUnlock(plus: extra, skipping: skipped, dead: dead, live: live)
      }
    }
  }

  private func removeDeadAndUnlock(
    plus extra: Unmanaged<OwnedStorage>?, skipping skipped: UInt?,
    dead: UnsafeMutableBufferPointer<Unmanaged<OwnedStorage>>,
    live: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>
  ) {
    var found = 0
    var alive = 0
    if let extra = unsafe extra {
      unsafe dead[0] = unsafe extra
      found = 1
    }
    var index = 0
    var capacity = unsafe state.pointee.capacity
    while true {
      var complete = true
      if unsafe capacity != state.pointee.capacity {
        // The table grew while the lock was released: start again.
        index = 0
        capacity = unsafe state.pointee.capacity
      }
      unsafe state.pointee.insertionsSinceScan = 0
      if let slots = unsafe state.pointee.slots {
        while unsafe index < state.pointee.capacity {
          guard let value = unsafe slots[index].value, unsafe slots[index].key != skipped else {
            index += 1
            continue
          }
          if found == dead.count || alive == live.count {
            complete = false
            break
          }
          if let owner = unsafe value._withUnsafeGuaranteedRef({ unsafe $0.storageOwner }) {
            // Released after the lock (see above).
            unsafe live[alive] = unsafe Unmanaged.passRetained(owner)
            alive += 1
            index += 1
            #if DEBUG
              unsafe state.pointee.scanFoundLiveOwner?(owner)
            #endif
          } else {
            unsafe dead[found] = unsafe value
            found += 1
            // The next entry may move into this slot: look at it again.
            removeLocked(at: index)
          }
        }
      }
      lock.unlock()
      for position in 0..<alive { unsafe live[position].release() }
      alive = 0
      for position in 0..<found { unsafe Self.release(dead[position]) }
      found = 0
      if complete { return }
      lock.lock()
    }
  }

  // MARK: - Hash table

  /// The key of `owner`: its address.
  private static func key(of owner: AnyObject) -> UInt {
    unsafe UInt(bitPattern: Unmanaged.passUnretained(owner).toOpaque())
  }

  /// 2^64 divided by the golden ratio, the multiplier of Fibonacci hashing.
  private static var fibonacciMultiplier: UInt { 0x9E37_79B9_7F4A_7C15 }

  /// The slot where the search for `key` starts.
  private func homeLocked(of key: UInt) -> Int {
    // Fibonacci hashing: the top bits of the product mix every bit of the address.
    unsafe Int(truncatingIfNeeded: (key &* Self.fibonacciMultiplier) >> UInt(state.pointee.shift))
  }

  /// The slot holding `key`, if any. Call with the lock held.
  private func indexLocked(of key: UInt) -> Int? {
    guard let slots = unsafe state.pointee.slots else { return nil }
    let mask = unsafe state.pointee.capacity - 1
    var index = homeLocked(of: key)
    while unsafe slots[index].value != nil {
      if unsafe slots[index].key == key { return index }
      index = (index + 1) & mask
    }
    return nil
  }

  /// Adds an entry for `key`, which must not be in the table, retaining `value`. Call with
  /// the lock held.
  private func insertLocked(key: UInt, value: OwnedStorage) {
    if unsafe (state.pointee.count + 1) * 4 > state.pointee.capacity * 3 {
      growLocked()
    }
    unsafe placeLocked(Slot(key: key, value: .passRetained(value)))
    unsafe state.pointee.count += 1
  }

  /// Puts `slot` in the first free slot of its probe sequence. Call with the lock held.
  private func placeLocked(_ slot: Slot) {
    let slots = unsafe state.pointee.slots!
    let mask = unsafe state.pointee.capacity - 1
    var index = homeLocked(of: slot.key)
    while unsafe slots[index].value != nil { index = (index + 1) & mask }
    unsafe slots[index] = slot
  }

  /// Doubles the capacity (16 slots at first). Call with the lock held.
  private func growLocked() {
    let old = unsafe state.pointee.slots
    let oldCapacity = unsafe state.pointee.capacity
    let capacity = max(16, oldCapacity * 2)
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    unsafe slots.initialize(repeating: Slot(key: 0, value: nil), count: capacity)
    unsafe state.pointee.slots = unsafe slots
    unsafe state.pointee.capacity = capacity
    unsafe state.pointee.shift = 64 - capacity.trailingZeroBitCount
    guard let old = unsafe old else { return }
    for index in 0..<oldCapacity where unsafe old[index].value != nil {
      unsafe placeLocked(old[index])
    }
    unsafe old.deallocate()
  }

  /// Empties the slot at `index`, moving later entries of its cluster back so that every
  /// probe sequence stays unbroken. Does not release the entry's value. Call with the lock
  /// held.
  private func removeLocked(at index: Int) {
    let slots = unsafe state.pointee.slots!
    let mask = unsafe state.pointee.capacity - 1
    var hole = index
    var next = index
    while true {
      next = (next + 1) & mask
      guard unsafe slots[next].value != nil else { break }
      let home = unsafe homeLocked(of: slots[next].key)
      // The entry at `next` may move to `hole` unless its home lies cyclically in
      // (hole, next].
      let homeIsBetween =
        hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !homeIsBetween {
        unsafe slots[hole] = unsafe slots[next]
        hole = next
      }
    }
    unsafe slots[hole] = unsafe Slot(key: 0, value: nil)
    unsafe state.pointee.count -= 1
  }

  // MARK: - Sweeping (Linux)

  /// Watches the owner of `storage`, which was just used, from now on: it is looked at by the
  /// next sweeps (see ``WeakObjectTable``). Call with the lock held.
  @inline(__always)
  private func watchLocked(_ storage: OwnedStorage) {
    #if !canImport(ObjectiveC)
      let mark = storage.sweepMark.load(ordering: .relaxed)
      if mark == 1 { return }
      storage.sweepMark.store(1, ordering: .relaxed)
      if mark == 0 { unsafe state.pointee.watched.append(storage.storageKey) }
      if unsafe !state.pointee.isSweepSoon {
        scheduleSweepLocked(afterMilliseconds: sweepDelays[0])
        unsafe state.pointee.isSweepSoon = true
      }
    #endif
  }

  /// Makes sure a sweep runs within `delay` milliseconds. Call with the lock held.
  private func scheduleSweepLocked(afterMilliseconds delay: UInt64) {
    let due = DispatchTime.now().uptimeNanoseconds + delay * 1_000_000
    let next = unsafe state.pointee.nextSweep
    if next != 0 && next <= due { return }
    unsafe state.pointee.nextSweep = due
    let deadline = DispatchTime(uptimeNanoseconds: due)
    let leeway = DispatchTimeInterval.milliseconds(Int(delay / 4))
    if let sweeper = unsafe state.pointee.sweeper {
      sweeper.schedule(deadline: deadline, repeating: .never, leeway: leeway)
      return
    }
    let sweeper = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    sweeper.setEventHandler { [weak self] in self?.sweep() }
    sweeper.schedule(deadline: deadline, repeating: .never, leeway: leeway)
    sweeper.resume()
    unsafe state.pointee.sweeper = sweeper
  }

  /// Looks at the watched owners: releases the storage of those that are gone, and stops
  /// watching those found alive ``sweepDelays``-many times. Schedules the next sweep if any
  /// owner is still watched.
  private func sweep() {
    unsafe withUnsafeTemporaryAllocation(of: Unmanaged<OwnedStorage>.self, capacity: Self.batch) {
      dead in
      unsafe withUnsafeTemporaryAllocation(of: Unmanaged<AnyObject>.self, capacity: Self.liveBatch)
      {
        live in
        unsafe sweep(dead: dead, live: live)
      }
    }
  }

  private func sweep(
    dead: UnsafeMutableBufferPointer<Unmanaged<OwnedStorage>>,
    live: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>
  ) {
    let delays = sweepDelays
    lock.lock()
    unsafe state.pointee.nextSweep = 0
    unsafe state.pointee.isSweepSoon = false
    unsafe state.pointee.isSweeping = true
    unsafe state.pointee.sweepCount += 1
    // Owners used from now on are added to a new list.
    var pending = unsafe state.pointee.watched
    unsafe state.pointee.watched = []
    var kept: [UInt] = []
    /// The fewest sweeps any kept owner has seen: the next sweep is due after its delay.
    var fewestLooks = delays.count
    var position = 0
    while true {
      var found = 0
      var alive = 0
      while position < pending.count, found < dead.count, alive < live.count {
        let key = pending[position]
        position += 1
        guard let index = indexLocked(of: key) else { continue }
        let value = unsafe state.pointee.slots![index].value!
        let storage = unsafe value.takeUnretainedValue()
        let mark = storage.sweepMark.load(ordering: .relaxed)
        // 0: no longer watched (a duplicate key, or a new owner at the same address).
        guard mark != 0 else { continue }
        if let owner = unsafe storage.storageOwner {
          // Released after the lock, like the scans' (see `removeDeadAndUnlock`).
          unsafe live[alive] = unsafe Unmanaged.passRetained(owner)
          alive += 1
          if Int(mark) >= delays.count {
            storage.sweepMark.store(0, ordering: .relaxed)
          } else {
            storage.sweepMark.store(mark + 1, ordering: .relaxed)
            kept.append(key)
            fewestLooks = min(fewestLooks, Int(mark))
          }
        } else {
          unsafe dead[found] = unsafe value
          found += 1
          removeLocked(at: index)
        }
      }
      let complete = position == pending.count
      if complete {
        unsafe state.pointee.isSweeping = false
        unsafe state.pointee.watched.append(contentsOf: kept)
        if unsafe !state.pointee.watched.isEmpty {
          scheduleSweepLocked(afterMilliseconds: delays[min(fewestLooks, delays.count - 1)])
        }
      }
      lock.unlock()
      for index in 0..<alive { unsafe live[index].release() }
      for index in 0..<found { unsafe Self.release(dead[index]) }
      if complete { break }
      lock.lock()
    }
    pending = []
  }

  /// Whether a Linux sweep is scheduled or running (for tests).
  var isSweepScheduled: Bool {
    lock.withLock { unsafe state.pointee.nextSweep != 0 || state.pointee.isSweeping }
  }

  /// The number of Linux sweeps run so far (for tests).
  var sweepCount: Int { lock.withLock { unsafe state.pointee.sweepCount } }

  #if DEBUG
    /// Sets the closure that scans call with each owner they find alive, with the lock held
    /// (for tests).
    func onScanFindingLiveOwner(_ body: ((AnyObject) -> Void)?) {
      lock.withLock { unsafe state.pointee.scanFoundLiveOwner = body }
    }
  #endif

  private func attachSentinel(to owner: AnyObject, value: OwnedStorage) {
    #if canImport(ObjectiveC)
      let key = ObjectIdentifier(owner)
      let sentinel = DeinitSentinel { [weak self, weak value] in
        guard let self, let value else { return }
        self.remove(value, forKey: key)
      }
      unsafe objc_setAssociatedObject(
        owner, Unmanaged.passUnretained(self).toOpaque(), sentinel, .OBJC_ASSOCIATION_RETAIN)
    #endif
  }
}

/// Runs a closure when it is disposed or deinitialised, whichever comes first.
///
/// Placed where an owner keeps it (an associated object, a dispose bag the owner holds), it
/// reports the owner's end.
final class DeinitSentinel: Disposable, @unchecked Sendable {
  // Safety: `action` is taken under `lock` by exactly one caller.
  private let lock = Lock()
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) {
    self.action = action
  }

  func dispose() {
    lock.lock()
    let action = self.action
    self.action = nil
    lock.unlock()
    action?()
  }

  deinit {
    action?()
  }
}
