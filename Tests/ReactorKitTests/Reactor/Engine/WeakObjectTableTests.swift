import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// The per-object storage table: lookups, insertions over dead owners, scans, purges and the
/// Linux sweeps, and that storage is released once its owner is gone.
///
/// Engine: WeakObjectTable.swift, OwnedStorage.swift and StorageTables.swift.
final class WeakObjectTableTests: ResourceTestCase {
  func test_value_isNilBeforeInsertion() {
    // given
    let table = WeakObjectTable()
    let owner = Owner()
    // when
    let value = table.value(for: owner)
    // then
    XCTAssertNil(value)
  }

  func test_valueOrInsert_createsOncePerOwner() {
    // given
    let table = WeakObjectTable()
    let first = Owner()
    let second = Owner()
    var created = 0
    // when
    let a = table.value(for: first) {
      created += 1
      return Storage()
    }
    let b = table.value(for: first) {
      created += 1
      return Storage()
    }
    let c = table.value(for: second) { Storage() }
    // then
    XCTAssertTrue(a === b)
    XCTAssertFalse(a === c)
    XCTAssertTrue(table.value(for: first) === a)
    XCTAssertEqual(created, 1)
  }

  func test_purge_releasesStorageOfDeadOwnersOnce() {
    // given
    let table = WeakObjectTable()
    let survivor = Owner()
    let survivorStorage = table.storage(for: survivor)
    var storage: Storage?
    do {
      let owner = Owner()
      storage = table.storage(for: owner)
    }
    // when
    table.purge()
    table.purge()
    // then
    XCTAssertEqual(storage?.releaseCount, 1)
    XCTAssertEqual(survivorStorage.releaseCount, 0)
    XCTAssertTrue(table.value(for: survivor) === survivorStorage)
    XCTAssertEqual(table.count, 1)
  }

  func test_insertions_releaseStorageOfDeadOwners() {
    // given: one stripe, whose insertions start its scans
    let table = WeakObjectTable(stripes: 1)
    var storage: Storage?
    do {
      let owner = Owner()
      storage = table.storage(for: owner)
    }
    // Kept alive together, so that no owner reuses the dead one's address.
    let others = (0..<WeakObjectTable.minimumInsertionsPerScan).map { _ in Owner() }
    // when
    for other in others { _ = table.value(for: other) { Storage() } }
    // then
    XCTAssertEqual(storage?.releaseCount, 1)
    XCTAssertEqual(table.count, others.count)
  }

  func test_deadOwners_areReleasedWithoutBeingAsked() {
    // given
    let table = WeakObjectTable()
    var storage: Storage?
    do {
      let owner = Owner()
      storage = table.storage(for: owner)
    }
    // when
    let deadline = Date().addingTimeInterval(2)
    while storage?.releaseCount == 0 && Date() < deadline { usleep(1_000) }
    // then
    XCTAssertEqual(storage?.releaseCount, 1)
    XCTAssertEqual(table.count, 0)
  }

  func test_remove_onlyRemovesTheGivenValue() {
    // given
    let table = WeakObjectTable()
    let owner = Owner()
    let current = table.value(for: owner) { Storage() }
    let stale = Storage()
    // when
    table.remove(stale, forKey: ObjectIdentifier(owner))
    // then
    XCTAssertTrue(table.value(for: owner) === current)
    XCTAssertEqual(stale.releaseCount, 0)
  }

  func test_manyOwners_survivorsKeepTheirStorageAcrossGrowthAndPurges() {
    // given
    let table = WeakObjectTable()
    var owners: [Owner?] = (0..<2_000).map { _ in Owner() }
    let storages = owners.map { table.storage(for: $0!) }
    var generator = SystemRandomNumberGenerator()
    // when
    for round in 0..<4 {
      for index in owners.indices where Int.random(in: 0..<3, using: &generator) == 0 {
        owners[index] = nil
      }
      if round.isMultiple(of: 2) { table.purge() }
      for _ in 0..<100 { _ = table.storage(for: Owner()) }
    }
    table.purge()
    // then
    let survivors = owners.indices.filter { owners[$0] != nil }
    for index in survivors {
      XCTAssertTrue(table.value(for: owners[index]!) === storages[index])
    }
    XCTAssertEqual(table.count, survivors.count)
    for index in owners.indices {
      XCTAssertEqual(storages[index].releaseCount, owners[index] == nil ? 1 : 0)
    }
  }

  func test_deinitSentinel_runsOnceOnDisposeOrDeinit() {
    // given
    let disposed = Locked(0)
    let deinitialized = Locked(0)
    let sentinel = DeinitSentinel { disposed.withLock { $0 += 1 } }
    // when
    sentinel.dispose()
    sentinel.dispose()
    do {
      _ = DeinitSentinel { deinitialized.withLock { $0 += 1 } }
    }
    // then
    XCTAssertEqual(disposed.current, 1)
    XCTAssertEqual(deinitialized.current, 1)
  }
  func test_ownerFreedWhileAScanLooksAtIt_deinitialisesOutsideTheLock() {
    // given: an owner whose deinitialiser uses the table. A scan takes a strong reference to
    // each owner it finds alive; the test lets go of its own reference exactly while the scan
    // holds that one (a barrier inside the scan), so the scan's is the last, and the owner's
    // deinitialiser runs on the scanning thread. It used to run with the table locked. One
    // stripe: the other thread's lookup of the anchor then needs the scanned stripe's mutex.
    let table = WeakObjectTable(stripes: 1)
    let anchor = Owner()
    _ = table.storage(for: anchor)
    let rounds = StressConfiguration.iterations(20)
    let wait = 10 * Double(StressConfiguration.multiplier)
    let underLock = AtomicBox<Int>(0)
    let sendableTable = UncheckedSendableBox(table)
    let sendableAnchor = UncheckedSendableBox(anchor)
    for _ in 0..<rounds {
      let scanHolds = AtomicBox<Bool>(false)
      let released = AtomicBox<Bool>(false)
      var owner: TableUsingOwner? = TableUsingOwner {
        // The table's lock is free unless this runs under it (on the scanning thread): then
        // another thread cannot use the table until the scan unlocks.
        let used = DispatchSemaphore(value: 0)
        Thread {
          _ = sendableTable.value.value(for: sendableAnchor.value)
          used.signal()
        }.start()
        if used.wait(timeout: .now() + 2) == .timedOut {
          underLock.add(1, ordering: .relaxed)
        }
      }
      let target = ObjectIdentifier(owner!)
      _ = table.storage(for: owner!)
      table.onScanFindingLiveOwner { found in
        guard ObjectIdentifier(found) == target else { return }
        scanHolds.store(true, ordering: .releasing)
        let deadline = Date().addingTimeInterval(wait)
        while !released.load(ordering: .acquiring) && Date() < deadline { sched_yield() }
      }
      let scanned = DispatchSemaphore(value: 0)
      // when
      Thread {
        sendableTable.value.purge()
        scanned.signal()
      }.start()
      let deadline = Date().addingTimeInterval(wait)
      while !scanHolds.load(ordering: .acquiring) && Date() < deadline { sched_yield() }
      XCTAssertTrue(scanHolds.load(ordering: .acquiring), "the scan never found the owner")
      owner = nil
      released.store(true, ordering: .releasing)
      // then
      XCTAssertEqual(scanned.wait(timeout: .now() + wait), .success, "the scan did not end")
      table.onScanFindingLiveOwner(nil)
    }
    XCTAssertEqual(underLock.load(ordering: .relaxed), 0, "an owner deinitialised under the lock")
    table.purge()
    XCTAssertEqual(table.count, 1)
  }

  func test_lookupInAnotherStripe_doesNotWaitForAStripeThatIsLocked() {
    // given: two owners in different stripes, and a scan that holds the first one's stripe
    // locked (it waits inside the scan's hook) until the second one's lookup is done
    let table = WeakObjectTable(stripes: 4)
    var owners = [Owner()]
    while owners.allSatisfy({ table.stripe(of: $0) == table.stripe(of: owners[0]) }) {
      owners.append(Owner())
    }
    let held = owners[0]
    let other = owners.first { table.stripe(of: $0) != table.stripe(of: held) }!
    let otherStorage = table.storage(for: other)
    _ = table.storage(for: held)
    let target = ObjectIdentifier(held)
    let scanHolds = DispatchSemaphore(value: 0)
    let scanMayEnd = DispatchSemaphore(value: 0)
    let scanEnded = DispatchSemaphore(value: 0)
    let lookedUp = DispatchSemaphore(value: 0)
    table.onScanFindingLiveOwner { found in
      guard ObjectIdentifier(found) == target else { return }
      scanHolds.signal()
      _ = scanMayEnd.wait(timeout: .now() + 10)
    }
    let sendableTable = UncheckedSendableBox(table)
    let sendableOther = UncheckedSendableBox(other)
    let found = Locked<OwnedStorage?>(nil)
    Thread {
      sendableTable.value.purge()
      scanEnded.signal()
    }.start()
    XCTAssertEqual(scanHolds.wait(timeout: .now() + 10), .success, "the scan never held it")
    // when: another thread looks the other owner up while the held stripe is locked
    Thread {
      let storage = sendableTable.value.value(for: sendableOther.value)
      found.withLock { $0 = storage }
      lookedUp.signal()
    }.start()
    // then: it does not wait for the scan (with one lock for the table, it would)
    XCTAssertEqual(lookedUp.wait(timeout: .now() + 5), .success, "the lookup waited")
    scanMayEnd.signal()
    XCTAssertEqual(scanEnded.wait(timeout: .now() + 10), .success, "the scan did not end")
    XCTAssertTrue(found.current === otherStorage)
    table.onScanFindingLiveOwner(nil)
    XCTAssertEqual(table.stripeCount, 4)
    XCTAssertEqual(table.count, 2)
  }

  func test_ownersFreedWhileScansRun_leaveOnlyTheLiveOnes() {
    // given: owners whose deinitialiser uses the table, freed on one thread while another scans
    let table = WeakObjectTable()
    let anchor = Owner()
    _ = table.storage(for: anchor)
    let rounds = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 2_000 : 20_000)
    let stop = AtomicBox<Bool>(false)
    let sendableTable = UncheckedSendableBox(table)
    let sendableAnchor = UncheckedSendableBox(anchor)
    // when
    runConcurrently(threads: 2) { thread in
      if thread == 0 {
        while !stop.load(ordering: .acquiring) {
          sendableTable.value.purge()
          sched_yield()
        }
        return
      }
      // A ring of live owners, so that scans find them alive; each round frees the oldest.
      var ring: [TableUsingOwner] = []
      for round in 0..<rounds {
        let owner = TableUsingOwner {
          _ = sendableTable.value.value(for: sendableAnchor.value)
        }
        _ = sendableTable.value.storage(for: owner)
        if ring.count < 64 {
          ring.append(owner)
        } else {
          ring[round % 64] = owner
        }
      }
      ring = []
      stop.store(true, ordering: .releasing)
    }
    // then: only the anchor is left. A scan still running elsewhere (a Linux sweep, on a
    // queue of its own) holds a strong reference to each owner it found alive until it ends,
    // and the owner's deinitialiser runs when it lets go; under load that can outlast the
    // loop, so purge again until it has (bounded: 10 s, times the stress multiplier).
    var count = 0
    XCTAssertTrue(
      waitUntil(seconds: 10) {
        table.purge()
        count = table.count
        return count == 1
      }, "\(count) entries left")
    XCTAssertEqual(table.count, 1)
  }

  // MARK: - Sweeps (Linux)

  #if !canImport(ObjectiveC)
    func test_ownersNotUsed_costNothing_noSweepIsScheduled() {
      // given: many live owners, used once
      let table = WeakObjectTable(sweepDelays: [20, 40, 80])
      let owners = (0..<1_000).map { _ in Owner() }
      for owner in owners { _ = table.storage(for: owner) }
      // when: nothing uses them for longer than the sweeps watch them
      let watched = Double(table.sweepDelays.reduce(0, +)) / 1_000
      XCTAssertTrue(waitUntil(seconds: 10 * watched) { !table.isSweepScheduled })
      let sweeps = table.sweepCount
      Thread.sleep(forTimeInterval: 0.3)
      // then: no timer fires while nothing happens
      XCTAssertFalse(table.isSweepScheduled)
      XCTAssertEqual(table.sweepCount, sweeps)
      // Each owner was looked at once per delay (insertions spread over time may need more).
      XCTAssertGreaterThanOrEqual(sweeps, table.sweepDelays.count)
      XCTAssertEqual(table.count, owners.count)
    }

    func test_ownerFreedSoonAfterItsLastUse_isReleasedWithoutBeingAsked() {
      // given
      let table = WeakObjectTable(sweepDelays: [20, 40, 80])
      var owner: Owner? = Owner()
      let storage = table.storage(for: owner!)
      Thread.sleep(forTimeInterval: 0.3)
      // when: used, then freed
      _ = table.value(for: owner!)
      owner = nil
      // then
      XCTAssertTrue(waitUntil(seconds: 2) { storage.releaseCount == 1 })
      XCTAssertEqual(table.count, 0)
    }

    func test_ownerFreedLongAfterItsLastUse_isReleasedOnceTouched() {
      // given: an owner the sweeps no longer watch
      let table = WeakObjectTable(sweepDelays: [20, 40, 80])
      var owner: Owner? = Owner()
      let storage = table.storage(for: owner!)
      XCTAssertTrue(waitUntil(seconds: 10) { !table.isSweepScheduled })
      // when: something reports it may go (a subscriber disposed), then it goes
      table.touch(storage)
      owner = nil
      // then
      XCTAssertTrue(waitUntil(seconds: 2) { storage.releaseCount == 1 })
      XCTAssertEqual(table.count, 0)
    }
  #endif

  /// Polls `condition` until it holds or `seconds` passed (scaled with `STRESS_ITERATIONS`).
  private func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    ReactorKitTesting.waitUntil(
      timeout: seconds * Double(StressConfiguration.multiplier), condition)
  }
}

// MARK: - Fakes

private final class Owner {}

/// An owner that runs `onDeinit`, which uses the table, when it is freed.
private final class TableUsingOwner: @unchecked Sendable {
  // Safety: immutable.
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit {
    onDeinit()
  }
}

/// Hands a non-`Sendable` value to another thread in tests that synchronise it themselves.
private struct UncheckedSendableBox<Value>: @unchecked Sendable {
  // Safety: the table is thread-safe; the anchor is only used as a key.
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension WeakObjectTable {
  fileprivate func storage(for owner: AnyObject) -> Storage {
    // The table only ever holds `Storage` values in these tests.
    value(for: owner) { Storage() } as! Storage
  }
}

private final class Storage: OwnedStorage, @unchecked Sendable {
  // Safety: only touched through `Locked`.
  private let releases = Locked(0)
  var releaseCount: Int { releases.current }

  override func ownerDidDeinitialize() {
    releases.withLock { $0 += 1 }
  }
}
