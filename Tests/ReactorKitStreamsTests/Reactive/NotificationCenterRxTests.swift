import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class NotificationCenterRxTests: ResourceTestCase {
  func test_notification_deliversMatchingNotificationsUntilDisposed() {
    // given
    let center = NotificationCenter()
    let name = Notification.Name("NotificationCenterRxTests.ping")
    let sender = NSObject()
    var received: [Int] = []
    // when
    let subscription = center.rx.notification(name, object: sender)
      .map { $0.userInfo?["value"] as? Int ?? -1 }
      .subscribe(onNext: { received.append($0) })
    center.post(name: name, object: sender, userInfo: ["value": 1])
    center.post(name: name, object: NSObject(), userInfo: ["value": 2])
    center.post(name: Notification.Name("other"), object: sender, userInfo: ["value": 3])
    center.post(name: name, object: sender, userInfo: ["value": 4])
    subscription.dispose()
    center.post(name: name, object: sender, userInfo: ["value": 5])
    // then
    XCTAssertEqual(received, [1, 4])
  }

  func test_notification_nilNameReceivesEveryName() {
    // given
    let center = NotificationCenter()
    var names: [String] = []
    // when
    let subscription = center.rx.notification(nil).subscribe(onNext: {
      names.append($0.name.rawValue)
    })
    center.post(name: Notification.Name("a"), object: nil)
    center.post(name: Notification.Name("b"), object: nil)
    subscription.dispose()
    // then
    XCTAssertEqual(names, ["a", "b"])
  }

  func test_notification_concurrentPostsAreDeliveredOneAtATime() {
    // given
    let center = NotificationCenter()
    let name = Notification.Name("NotificationCenterRxTests.concurrent")
    let inside = AtomicCounter()
    let overlaps = AtomicCounter()
    let count = AtomicCounter()
    let subscription = center.rx.notification(name).subscribe(onNext: { _ in
      if inside.increment() > 1 { _ = overlaps.increment() }
      sched_yield()
      _ = inside.decrement()
      _ = count.increment()
    })
    // when
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<200 { center.post(name: name, object: nil) }
    }
    subscription.dispose()
    // then
    XCTAssertEqual(count.value, 800)
    XCTAssertEqual(overlaps.value, 0)
  }
}

/// A counter for the concurrent test.
private final class AtomicCounter: @unchecked Sendable {
  // Safety: `count` is guarded by `lock`.
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }

  func increment() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }

  func decrement() -> Int {
    lock.withLock {
      count -= 1
      return count
    }
  }
}
