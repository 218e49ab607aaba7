import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class PublishSubjectConcurrencyTests: ResourceTestCase {
  func test_publishSubject_concurrentOnNextIsSerialAndComplete() {
    let subject = PublishSubject<Int>()
    let active = LockedCounter()
    var count = 0
    let subscription = subject.subscribe(onNext: { _ in
      XCTAssertEqual(active.increment(), 1, "Delivery overlapped")
      count += 1
      active.decrement()
    })
    runConcurrently(threads: 8) { _ in
      for value in 0..<5_000 {
        subject.onNext(value)
        if value % 64 == 0 { sched_yield() }
      }
    }
    XCTAssertEqual(count, 40_000)
    subscription.dispose()
  }
}
