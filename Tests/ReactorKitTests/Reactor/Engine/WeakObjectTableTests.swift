import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

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
    // given
    let table = WeakObjectTable()
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

  func test_setValue_replacesAndRemoves() {
    // given
    let table = WeakObjectTable()
    let owner = Owner()
    let first = Storage()
    let second = Storage()
    // when
    let none = table.setValue(first, for: owner)
    let replaced = table.setValue(second, for: owner)
    let current = table.value(for: owner)
    let removed = table.setValue(nil, for: owner)
    // then
    XCTAssertNil(none)
    XCTAssertTrue(replaced === first)
    XCTAssertTrue(current === second)
    XCTAssertTrue(removed === second)
    XCTAssertNil(table.value(for: owner))
    XCTAssertEqual(first.releaseCount + second.releaseCount, 0)
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
    // given: owners whose deinitialiser uses the table, released on one thread while another
    // scans the table. A scan takes a strong reference to each owner it finds alive; when it
    // holds the last one, the owner's deinitialiser runs on the scanning thread, and used to
    // run with the table locked: a deadlock.
    let table = WeakObjectTable()
    let anchor = Owner()
    _ = table.storage(for: anchor)
    let rounds = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 40_000 : 400_000)
    let finished = expectation(description: "both threads finished")
    finished.expectedFulfillmentCount = 2
    let stop = AtomicBox<Bool>(false)
    let sendableTable = UncheckedSendableBox(table)
    let sendableAnchor = UncheckedSendableBox(anchor)
    // when
    Thread.detachNewThread {
      while !stop.load(ordering: .acquiring) { sendableTable.value.purge() }
      finished.fulfill()
    }
    Thread.detachNewThread {
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
      stop.store(true, ordering: .releasing)
      finished.fulfill()
    }
    // then
    wait(for: [finished], timeout: 30)
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
