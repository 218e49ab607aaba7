import Dispatch
import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKitStreams

/// `UnownedAddress`: a weak reference without the side table (the Linux storage tables' link
/// to each reactor and view).
final class UnownedAddressTests: XCTestCase {
  func test_object_isTheObjectWhileItLives_andNilOnceItIsDeinitialised() {
    // given
    let deinitialized = AtomicBox<Bool>(false)
    var object: Tracked? = Tracked { deinitialized.store(true, ordering: .releasing) }
    let address = UnownedAddress(retainingMemoryOf: object!)
    // then
    XCTAssertTrue(address.object === object)
    XCTAssertTrue(address.refers(to: object!))
    XCTAssertFalse(address.refers(to: Tracked {}))
    // when: the last strong reference goes
    object = nil
    // then: it was deinitialised although its memory is still held
    XCTAssertTrue(deinitialized.load(ordering: .acquiring))
    XCTAssertNil(address.object)
    address.releaseMemory()
  }

  func test_object_doesNotKeepTheObjectAlive() {
    // given
    weak var weakObject: Tracked?
    let address: UnownedAddress
    do {
      let object = Tracked {}
      weakObject = object
      address = UnownedAddress(retainingMemoryOf: object)
      // when: loaded and dropped again
      XCTAssertNotNil(address.object)
    }
    // then
    XCTAssertNil(weakObject)
    XCTAssertNil(address.object)
    address.releaseMemory()
  }

  func test_object_loadedFromManyThreadsWhileTheLastReferenceGoes_isEitherAliveOrNil() {
    // given: threads loading the object while the test drops it
    let rounds = StressConfiguration.iterations(200)
    let loadedAfterDeinit = AtomicBox<Int>(0)
    for _ in 0..<rounds {
      let deinitialized = AtomicBox<Bool>(false)
      var object: Tracked? = Tracked { deinitialized.store(true, ordering: .releasing) }
      let address = UnownedAddress(retainingMemoryOf: object!)
      let start = DispatchSemaphore(value: 0)
      let group = DispatchGroup()
      for _ in 0..<2 {
        DispatchQueue.global().async(group: group) {
          start.wait()
          for _ in 0..<50 {
            guard let loaded = address.object else { return }
            // A loaded object is alive: its deinitialiser has not run.
            if deinitialized.load(ordering: .acquiring) {
              loadedAfterDeinit.add(1, ordering: .relaxed)
            }
            withExtendedLifetime(loaded) {}
          }
        }
      }
      // when
      start.signal()
      start.signal()
      object = nil
      // then
      XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
      XCTAssertNil(address.object)
      address.releaseMemory()
    }
    XCTAssertEqual(loadedAfterDeinit.load(ordering: .relaxed), 0)
  }
}

private final class Tracked: @unchecked Sendable {
  // Safety: immutable.
  let onDeinit: @Sendable () -> Void
  init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
