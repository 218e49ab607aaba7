import Dispatch
import ReactorKitStreams

/// A map from objects to storage that does not retain the objects: the library's replacement
/// for associated objects.
///
/// Entries are keyed by the owner's address; each storage remembers its owner
/// (``OwnedStorage/storageOwner``) without keeping it alive: on Linux by an unowned count that
/// keeps the owner's memory allocated until the storage goes, so no other object can take the
/// address meanwhile and a lookup compares addresses only (a weak reference would give every
/// owner a side table, slowing each of its retains and releases); on Apple platforms, where an
/// owner may be an Objective-C object, weakly, so an entry whose owner has died is recognised
/// even if a new object reuses the address. Dead entries are released
/// - at once on Apple platforms, where a sentinel associated with the owner reports its
///   deinitialisation;
/// - when an object that owns a sentinel the table handed out (``DeinitSentinel``) goes away;
/// - when an insertion reuses the key of a dead owner, and by a scan for dead owners that
///   insertions run after a stripe has grown by half since its last scan (amortised O(1));
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
/// storage (``OwnedStorage/ownerDidDeinitialize()``) outside its locks.
///
/// The table is striped: the top bits of an owner's hash pick one of ``stripeCount`` stripes,
/// each with its own mutex, slots, scans and sweeps, so that threads using different owners
/// (views reading `reactor.action` of their reactors) rarely wait for one another. A stripe's
/// entries live in an open-addressing hash table (Fibonacci hashing, linear probing,
/// backward-shift deletion); its memory, the stripes' and the scans' are in
/// WeakObjectTableStorage.swift, so this file is safe Swift.
@usableFromInline
final class WeakObjectTable: @unchecked Sendable {
  // Safety: each stripe's state is read and written only with the stripe's mutex held.

  /// The fewest insertions into a stripe between two scans for dead owners started by an
  /// insertion.
  static var minimumInsertionsPerScan: Int { 8 }

  /// The delays, in milliseconds, between the last use of an owner and the Linux sweeps that
  /// look at it: after the last one, the owner is no longer watched.
  let sweepDelays: [UInt64]

  private let stripes: WeakTableStripes
  /// `log2(stripes.count)`: how many top bits of the hash pick the stripe.
  private let stripeBits: Int

  /// The number of stripes.
  var stripeCount: Int { stripes.count }

  /// Creates an empty table.
  ///
  /// - Parameters:
  ///   - stripes: The number of stripes, a power of two.
  ///   - sweepDelays: The delays between the last use of an owner and the Linux sweeps that
  ///     look at it, in milliseconds.
  init(stripes: Int = 32, sweepDelays: [UInt64] = [50, 100, 200, 400, 800, 1_600]) {
    precondition(!sweepDelays.isEmpty && sweepDelays.count < Int(UInt8.max))
    self.sweepDelays = sweepDelays
    self.stripes = WeakTableStripes(count: stripes)
    stripeBits = stripes.trailingZeroBitCount
  }

  deinit {
    for index in 0..<stripes.count {
      let slots = stripes[index].slots
      for position in 0..<slots.capacity { slots[position].entry?.release() }
      slots.deallocate()
      stripes[index].sweeper?.cancel()
    }
    stripes.deallocate()
  }

  /// The number of entries, dead or alive (for tests).
  var count: Int { total { $0.count } }

  /// Whether a Linux sweep is scheduled or running (for tests).
  var isSweepScheduled: Bool { total { $0.nextSweep != 0 || $0.isSweeping ? 1 : 0 } > 0 }

  /// The number of Linux sweeps run so far (for tests).
  var sweepCount: Int { total { $0.sweepCount } }

  /// The sum of `value` over the stripes, each read with its mutex held.
  private func total(_ value: (WeakTableStripe) -> Int) -> Int {
    var sum = 0
    for index in 0..<stripes.count {
      stripes.lock(index)
      sum += value(stripes[index])
      stripes.unlock(index)
    }
    return sum
  }

  // MARK: - Lookup and insertion

  /// The storage of `owner`, or `nil` when none was created.
  @usableFromInline
  func value(for owner: AnyObject) -> OwnedStorage? {
    let key = Self.key(of: owner)
    let stripe = stripeIndex(of: key)
    stripes.lock(stripe)
    guard let index = indexLocked(of: key, in: stripe),
      let entry = stripes[stripe].slots[index].entry,
      entry.belongs(to: owner)
    else {
      stripes.unlock(stripe)
      return nil
    }
    let value = entry.storage
    watchLocked(value, in: stripe)
    stripes.unlock(stripe)
    return value
  }

  /// The storage of `owner`, created with `make` if it has none.
  ///
  /// - Parameter make: Builds the storage. Runs with a stripe locked, so it must not call user
  ///   code or touch the table.
  @usableFromInline
  func value(for owner: AnyObject, orInsert make: () -> OwnedStorage) -> OwnedStorage {
    let key = Self.key(of: owner)
    let stripe = stripeIndex(of: key)
    stripes.lock(stripe)
    var stale: WeakTableEntry?
    if let index = indexLocked(of: key, in: stripe) {
      let existing = stripes[stripe].slots[index].entry!
      if existing.belongs(to: owner) {
        let value = existing.storage
        watchLocked(value, in: stripe)
        stripes.unlock(stripe)
        return value
      }
      // It belonged to a dead object at the same address.
      stale = existing
      removeLocked(at: index, in: stripe)
    }
    let value = make()
    value.assign(to: owner, key: key)
    insertLocked(key: key, value: value, in: stripe)
    watchLocked(value, in: stripe)
    stripes[stripe].insertionsSinceScan += 1
    // Amortised: a scan visits every entry of the stripe, so it runs after as many insertions
    // as half its entries, and not before `minimumInsertionsPerScan` (a small stripe would
    // otherwise be scanned on every insertion).
    let insertions = stripes[stripe].insertionsSinceScan
    let scan =
      insertions * 2 >= stripes[stripe].count && insertions >= Self.minimumInsertionsPerScan
    if !scan {
      stripes.unlock(stripe)
      attachSentinel(to: owner, value: value)
      stale?.releaseDead()
      return value
    }
    // `removeDeadAndUnlock` unlocks.
    removeDeadAndUnlock(stripe, plus: stale, skipping: key)
    attachSentinel(to: owner, value: value)
    return value
  }

  /// Notes that the owner of `storage` was used, or may have been freed: the Linux sweeps look
  /// at it soon (see ``WeakObjectTable``). Costs one atomic load when they already watch it.
  @usableFromInline
  func touch(_ storage: OwnedStorage) {
    #if !canImport(ObjectiveC)
      if storage.sweepMark.load(ordering: .relaxed) == 1 { return }
      let key = storage.tableKey
      let stripe = stripeIndex(of: key)
      stripes.lock(stripe)
      if let index = indexLocked(of: key, in: stripe),
        stripes[stripe].slots[index].entry!.holds(storage)
      {
        watchLocked(storage, in: stripe)
      }
      stripes.unlock(stripe)
    #endif
  }

  /// Removes the entry for `key` if it still holds `value`, and releases `value`.
  ///
  /// Used when the owner of `value` is known to be gone.
  func remove(_ value: OwnedStorage, forKey key: ObjectIdentifier) {
    let key = UInt(bitPattern: key)
    let stripe = stripeIndex(of: key)
    stripes.lock(stripe)
    var removed: WeakTableEntry?
    if let index = indexLocked(of: key, in: stripe),
      let entry = stripes[stripe].slots[index].entry, entry.holds(value)
    {
      removed = entry
      removeLocked(at: index, in: stripe)
    }
    stripes.unlock(stripe)
    removed?.releaseDead()
  }

  /// Releases the storage of every owner that has been deinitialised.
  @usableFromInline
  func purge() {
    for stripe in 0..<stripes.count {
      stripes.lock(stripe)
      removeDeadAndUnlock(stripe, plus: nil, skipping: nil)
    }
  }

  // MARK: - Scanning

  /// Removes the entries of dead owners in `stripe` and releases them, with `extra` (a dead
  /// entry already removed). Call with the stripe locked; it is unlocked on return.
  ///
  /// Dead entries are collected on the stack, a batch at a time, and released outside the
  /// mutex. So are the owners found alive: telling whether an owner is alive takes a strong
  /// reference to it, and if another thread lets go of the owner meanwhile, dropping that
  /// reference runs the owner's deinitialiser, which may use this table (a view's dispose bag
  /// does), so it must not run with the mutex held.
  ///
  /// - Parameter skipped: The key of an owner known to be alive (the caller's), not looked at.
  private func removeDeadAndUnlock(
    _ stripe: Int, plus extra: WeakTableEntry?, skipping skipped: UInt?
  ) {
    WeakTableScanBatch.withBatch { batch in
      if let extra { batch.appendDead(extra) }
      removeDeadAndUnlock(stripe, skipping: skipped, batch: &batch)
    }
  }

  private func removeDeadAndUnlock(
    _ stripe: Int, skipping skipped: UInt?, batch: inout WeakTableScanBatch
  ) {
    var index = 0
    var capacity = stripes[stripe].slots.capacity
    while true {
      var complete = true
      if capacity != stripes[stripe].slots.capacity {
        // The stripe grew while its mutex was released: start again.
        index = 0
        capacity = stripes[stripe].slots.capacity
      }
      stripes[stripe].insertionsSinceScan = 0
      let slots = stripes[stripe].slots
      while index < slots.capacity {
        let slot = slots[index]
        guard let entry = slot.entry, slot.key != skipped else {
          index += 1
          continue
        }
        if batch.isFull {
          complete = false
          break
        }
        if let owner = entry.owner {
          batch.appendLive(owner)
          index += 1
          #if DEBUG
            stripes[stripe].scanFoundLiveOwner?(owner)
          #endif
        } else {
          batch.appendDead(entry)
          // The next entry may move into this slot: look at it again.
          removeLocked(at: index, in: stripe)
        }
      }
      stripes.unlock(stripe)
      batch.releaseAll()
      if complete { return }
      stripes.lock(stripe)
    }
  }

  #if DEBUG
    /// Sets the closure that scans call with each owner they find alive, with its stripe
    /// locked (for tests).
    func onScanFindingLiveOwner(_ body: ((AnyObject) -> Void)?) {
      for stripe in 0..<stripes.count {
        stripes.lock(stripe)
        stripes[stripe].scanFoundLiveOwner = body
        stripes.unlock(stripe)
      }
    }
  #endif

  // MARK: - Sweeping (Linux)

  /// Watches the owner of `storage`, which was just used, from now on: it is looked at by the
  /// next sweeps of its stripe (see ``WeakObjectTable``). Call with the stripe locked.
  @inline(__always)
  private func watchLocked(_ storage: OwnedStorage, in stripe: Int) {
    #if !canImport(ObjectiveC)
      let mark = storage.sweepMark.load(ordering: .relaxed)
      if mark == 1 { return }
      storage.sweepMark.store(1, ordering: .relaxed)
      if mark == 0 { stripes[stripe].watched.append(storage.tableKey) }
      if !stripes[stripe].isSweepSoon {
        scheduleSweepLocked(stripe, afterMilliseconds: sweepDelays[0])
        stripes[stripe].isSweepSoon = true
      }
    #endif
  }

  /// Makes sure a sweep of `stripe` runs within `delay` milliseconds. Call with the stripe
  /// locked.
  private func scheduleSweepLocked(_ stripe: Int, afterMilliseconds delay: UInt64) {
    let due = DispatchTime.now().uptimeNanoseconds + delay * 1_000_000
    let next = stripes[stripe].nextSweep
    if next != 0 && next <= due { return }
    stripes[stripe].nextSweep = due
    let deadline = DispatchTime(uptimeNanoseconds: due)
    let leeway = DispatchTimeInterval.milliseconds(Int(delay / 4))
    if let sweeper = stripes[stripe].sweeper {
      sweeper.schedule(deadline: deadline, repeating: .never, leeway: leeway)
      return
    }
    let sweeper = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    sweeper.setEventHandler { [weak self] in self?.sweep(stripe) }
    sweeper.schedule(deadline: deadline, repeating: .never, leeway: leeway)
    sweeper.resume()
    stripes[stripe].sweeper = sweeper
  }

  /// Looks at the watched owners of `stripe`: releases the storage of those that are gone, and
  /// stops watching those found alive ``sweepDelays``-many times. Schedules the stripe's next
  /// sweep if any owner is still watched.
  private func sweep(_ stripe: Int) {
    let delays = sweepDelays
    WeakTableScanBatch.withBatch { batch in
      stripes.lock(stripe)
      stripes[stripe].nextSweep = 0
      stripes[stripe].isSweepSoon = false
      stripes[stripe].isSweeping = true
      stripes[stripe].sweepCount += 1
      // Owners used from now on are added to a new list.
      let pending = stripes[stripe].watched
      stripes[stripe].watched = []
      var kept: [UInt] = []
      // The fewest sweeps any kept owner has seen: the next sweep is due after its delay.
      var fewestLooks = delays.count
      var position = 0
      while true {
        while position < pending.count, !batch.isFull {
          let key = pending[position]
          position += 1
          guard let index = indexLocked(of: key, in: stripe) else { continue }
          let entry = stripes[stripe].slots[index].entry!
          let mark = entry.sweepMark
          // 0: no longer watched (a duplicate key, or a new owner at the same address).
          guard mark != 0 else { continue }
          if let owner = entry.owner {
            // Released after the mutex, like the scans' (see `removeDeadAndUnlock`).
            batch.appendLive(owner)
            if Int(mark) >= delays.count {
              entry.storage.sweepMark.store(0, ordering: .relaxed)
            } else {
              entry.storage.sweepMark.store(mark + 1, ordering: .relaxed)
              kept.append(key)
              fewestLooks = min(fewestLooks, Int(mark))
            }
          } else {
            batch.appendDead(entry)
            removeLocked(at: index, in: stripe)
          }
        }
        let complete = position == pending.count
        if complete {
          stripes[stripe].isSweeping = false
          stripes[stripe].watched.append(contentsOf: kept)
          if !stripes[stripe].watched.isEmpty {
            scheduleSweepLocked(
              stripe, afterMilliseconds: delays[min(fewestLooks, delays.count - 1)])
          }
        }
        stripes.unlock(stripe)
        batch.releaseAll()
        if complete { break }
        stripes.lock(stripe)
      }
    }
  }

  // MARK: - Hash table

  /// The key of `owner`: its address.
  private static func key(of owner: AnyObject) -> UInt {
    UInt(bitPattern: ObjectIdentifier(owner))
  }

  /// 2^64 divided by the golden ratio, the multiplier of Fibonacci hashing.
  private static var fibonacciMultiplier: UInt { 0x9E37_79B9_7F4A_7C15 }

  /// The stripe of `owner` (for tests).
  func stripe(of owner: AnyObject) -> Int { stripeIndex(of: Self.key(of: owner)) }

  /// The stripe of `key`: the top bits of its hash.
  @inline(__always)
  private func stripeIndex(of key: UInt) -> Int {
    // Fibonacci hashing: the top bits of the product mix every bit of the address.
    Int(truncatingIfNeeded: (key &* Self.fibonacciMultiplier) >> UInt(64 - stripeBits))
  }

  /// The slot of `stripe` where the search for `key` starts: the hash's next bits.
  @inline(__always)
  private func homeLocked(of key: UInt, in stripe: Int) -> Int {
    let hash = (key &* Self.fibonacciMultiplier) << UInt(stripeBits)
    return Int(truncatingIfNeeded: hash >> UInt(stripes[stripe].shift))
  }

  /// The slot of `stripe` holding `key`, if any. Call with the stripe locked.
  private func indexLocked(of key: UInt, in stripe: Int) -> Int? {
    let slots = stripes[stripe].slots
    guard slots.capacity > 0 else { return nil }
    let mask = slots.capacity - 1
    var index = homeLocked(of: key, in: stripe)
    while true {
      let slot = slots[index]
      guard slot.entry != nil else { return nil }
      if slot.key == key { return index }
      index = (index + 1) & mask
    }
  }

  /// Adds an entry for `key`, which must not be in `stripe`, retaining `value`. Call with the
  /// stripe locked.
  private func insertLocked(key: UInt, value: OwnedStorage, in stripe: Int) {
    if (stripes[stripe].count + 1) * 4 > stripes[stripe].slots.capacity * 3 {
      growLocked(stripe)
    }
    placeLocked(WeakTableSlot(key: key, entry: WeakTableEntry(retaining: value)), in: stripe)
    stripes[stripe].count += 1
  }

  /// Puts `slot` in the first free slot of its probe sequence. Call with the stripe locked.
  private func placeLocked(_ slot: WeakTableSlot, in stripe: Int) {
    let slots = stripes[stripe].slots
    let mask = slots.capacity - 1
    var index = homeLocked(of: slot.key, in: stripe)
    while slots[index].entry != nil { index = (index + 1) & mask }
    slots[index] = slot
  }

  /// Doubles the capacity of `stripe` (16 slots at first). Call with the stripe locked.
  private func growLocked(_ stripe: Int) {
    let old = stripes[stripe].slots
    let capacity = max(16, old.capacity * 2)
    stripes[stripe].slots = WeakTableSlots(capacity: capacity)
    stripes[stripe].shift = 64 - capacity.trailingZeroBitCount
    for index in 0..<old.capacity where old[index].entry != nil {
      placeLocked(old[index], in: stripe)
    }
    old.deallocate()
  }

  /// Empties the slot at `index` of `stripe`, moving later entries of its cluster back so
  /// that every probe sequence stays unbroken. Does not release the entry. Call with the
  /// stripe locked.
  private func removeLocked(at index: Int, in stripe: Int) {
    let slots = stripes[stripe].slots
    let mask = slots.capacity - 1
    var hole = index
    var next = index
    while true {
      next = (next + 1) & mask
      guard slots[next].entry != nil else { break }
      let home = homeLocked(of: slots[next].key, in: stripe)
      // The entry at `next` may move to `hole` unless its home lies cyclically in
      // (hole, next].
      let homeIsBetween =
        hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !homeIsBetween {
        slots[hole] = slots[next]
        hole = next
      }
    }
    slots[hole] = WeakTableSlot(key: 0, entry: nil)
    stripes[stripe].count -= 1
  }

  private func attachSentinel(to owner: AnyObject, value: OwnedStorage) {
    #if canImport(ObjectiveC)
      let key = ObjectIdentifier(owner)
      let sentinel = DeinitSentinel { [weak self, weak value] in
        guard let self, let value else { return }
        self.remove(value, forKey: key)
      }
      associate(sentinel, with: owner, for: self)
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
