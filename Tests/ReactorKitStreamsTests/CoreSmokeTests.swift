import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MapFilterTests: ResourceTestCase {
  func test_map_transformsElementsAndForwardsCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(300), .next(310, 9),
    ])
    // when
    let observer = scheduler.start { source.map { $0 * 10 } }
    // then
    XCTAssertEqual(observer.events, [.next(210, 20), .next(220, 30), .completed(300)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_map_throwingTransformEndsWithError() {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let observer = scheduler.start {
      source.map { value -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
    }
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_filter_disposalStopsDelivery() {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 4), .next(400, 6),
    ])
    let observer = scheduler.start(disposed: 300) { source.filter { $0 % 2 == 0 } }
    XCTAssertEqual(observer.events, [.next(220, 2), .next(230, 4)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_of_trampolinesNestedSequences() {
    var received: [Int] = []
    let outer = Observable.of(1, 2)
    let subscription = outer.subscribe(onNext: { value in
      _ = Observable.of(value * 10, value * 100).subscribe(onNext: { received.append($0) })
    })
    subscription.dispose()
    XCTAssertEqual(received, [10, 100, 20, 200])
  }

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

final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
  func decrement() {
    lock.lock()
    value -= 1
    lock.unlock()
  }
}
