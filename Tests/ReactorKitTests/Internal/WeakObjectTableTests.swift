import Foundation
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

  func test_insertion_releasesStorageOfDeadOwners() {
    // given
    let table = WeakObjectTable()
    var storage: Storage?
    do {
      let owner = Owner()
      storage = table.storage(for: owner)
    }
    let other = Owner()
    // when
    _ = table.value(for: other) { Storage() }
    // then
    XCTAssertEqual(storage?.releaseCount, 1)
    XCTAssertEqual(table.count, 1)
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
}

// MARK: - Fakes

private final class Owner {}

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
