import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `CompositeDisposable` and `SerialDisposable` filled from several threads while another
/// disposes them: every member is disposed exactly once, and (under the thread sanitizer) no
/// access to their state happens outside their lock. Both once passed their `disposed` flag
/// `inout` into the lock's helper, which begins the access before the lock is taken: the
/// thread sanitizer reported it as a race (found by a soak run at STRESS_ITERATIONS=10).
final class DisposableContainerStressTests: ResourceTestCase {
  private final class Probe: Disposable, @unchecked Sendable {
    // Safety: `count` is atomic.
    let count = AtomicBox<Int>(0)
    func dispose() { count.wrappingAdd(1, ordering: .acquiringAndReleasing) }
  }

  func test_compositeDisposable_insertsRacingDispose_eachMemberDisposedOnce() {
    for _ in 0..<StressConfiguration.iterations(20) {
      // given
      let group = CompositeDisposable()
      let probes = (0..<64).map { _ in Probe() }
      // when: three threads insert while a fourth disposes
      runConcurrently(threads: 4) { index in
        if index == 3 {
          group.dispose()
          return
        }
        let end = index == 2 ? probes.count : (index + 1) * 21
        for probe in probes[(index * 21)..<end] {
          if let key = group.insert(probe), index == 1 { group.remove(for: key) }
        }
      }
      group.dispose()
      // then
      XCTAssertTrue(group.isDisposed)
      XCTAssertEqual(group.count, 0)
      for probe in probes {
        XCTAssertEqual(probe.count.load(ordering: .acquiring), 1)
      }
    }
  }

  func test_serialDisposable_replacementsRacingDispose_eachValueDisposedOnce() {
    for _ in 0..<StressConfiguration.iterations(20) {
      // given
      let serial = SerialDisposable()
      let probes = (0..<48).map { _ in Probe() }
      // when: three threads replace the value while a fourth disposes
      runConcurrently(threads: 4) { index in
        if index == 3 {
          serial.dispose()
          return
        }
        for probe in probes[(index * 16)..<((index + 1) * 16)] { serial.disposable = probe }
      }
      serial.dispose()
      // then
      XCTAssertTrue(serial.isDisposed)
      for probe in probes {
        XCTAssertEqual(probe.count.load(ordering: .acquiring), 1)
      }
    }
  }
}
