import Foundation
import XCTest

import var ReactorKitTesting.defaultConcurrencyTimeout
import func ReactorKitTesting.runConcurrentlyWithin

@testable import ReactorKitReactiveReSwift

/// `ObservableProperty`, its references and `SubscriptionReferenceBag` (ReactiveReSwift's
/// ReactiveTests), plus thread safety.
final class ObservablePropertyTests: XCTestCase {
  func test_subscribe_receivesTheCurrentValueThenEachNewOne() {
    // given
    let property = ObservableProperty(10)
    var received: [Int] = []

    // when
    property.subscribe { received.append($0) }
    property.value = 20
    property.value = 30

    // then
    XCTAssertEqual(received, [10, 20, 30])
    XCTAssertEqual(property.value, 30)
  }

  func test_map_transformsEveryValue() {
    // given
    let property = ObservableProperty(10)
    var received: [Int] = []

    // when
    property.map { $0 * 10 }.subscribe { received.append($0) }
    property.value = 20

    // then
    XCTAssertEqual(received, [100, 200])
  }

  func test_distinct_skipsRepeatedValues() {
    // given
    let property = ObservableProperty(10)
    var received: [Int] = []
    property.distinct().subscribe { received.append($0) }

    // when
    for value in [10, 10, 20, 20, 30, 30, 30] { property.value = value }

    // then
    XCTAssertEqual(received, [10, 20, 30])
  }

  func test_distinctWithComparison_skipsWhatItCallsEqual() {
    // given
    let property = ObservableProperty(1)
    var received: [Int] = []
    property.distinct { $0 % 2 == $1 % 2 }.subscribe { received.append($0) }

    // when
    for value in [3, 4, 6, 7] { property.value = value }

    // then
    XCTAssertEqual(received, [1, 4, 7])
  }

  func test_dispose_removesTheSubscription() {
    // given
    let property = ObservableProperty(())
    var calls = 0
    let reference = property.subscribe { calls += 1 }
    XCTAssertEqual(property.subscriptionCount, 1)

    // when
    reference.dispose()
    property.value = ()

    // then
    XCTAssertEqual(property.subscriptionCount, 0)
    XCTAssertEqual(calls, 1)
  }

  func test_disposeTwice_isHarmless() {
    // given
    let property = ObservableProperty(())
    let reference = property.subscribe {}

    // when
    reference.dispose()
    reference.dispose()

    // then
    XCTAssertEqual(property.subscriptionCount, 0)
  }

  func test_references_areEqualOnlyForTheSameSubscription() {
    // given
    let property = ObservableProperty(0)

    // when
    let first = property.subscribe { _ in }
    let second = property.subscribe { _ in }

    // then
    XCTAssertEqual(first, first)
    XCTAssertNotEqual(first, second)
    XCTAssertEqual(Set([first, first, second].compactMap { $0 }).count, 2)
  }

  func test_bag_disposesOfEveryReference() {
    // given
    let property = ObservableProperty(()).deliveredOn(DispatchQueue.global())
    let bag = SubscriptionReferenceBag(property.subscribe {})
    bag += property.subscribe {}
    bag += nil
    XCTAssertEqual(property.subscriptionCount, 2)

    // when
    bag.dispose()

    // then
    XCTAssertEqual(property.subscriptionCount, 0)
  }

  func test_bag_disposesWhenFreed() {
    // given
    let property = ObservableProperty(0)
    var bag: SubscriptionReferenceBag? = SubscriptionReferenceBag()
    bag?.addReference(reference: property.subscribe { _ in })

    // when
    bag = nil

    // then
    XCTAssertNil(bag)
    XCTAssertEqual(property.subscriptionCount, 0)
  }

  func test_deliveredOn_deliversTheFirstValueAtOnceAndLaterOnesOnTheQueue() {
    // given
    let queue = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let property = ObservableProperty(1)
    let received = Locked<[String]>([])
    let done = expectation(description: "the later value arrived")
    property.deliveredOn(queue).subscribe { value in
      received.update { $0.append("\(value) \(DispatchQueue.getSpecific(key: key) == true)") }
      if value == 2 { done.fulfill() }
    }

    // when
    property.value = 2

    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(received.value, ["1 false", "2 true"])
  }

  func test_setFromManyThreads_eachSubscriberIsCalledSeriallyAndEndsWithTheLastValue() {
    // given
    let property = ObservableProperty(0)
    let inside = Locked(0)
    let overlaps = Locked(0)
    let calls = Locked(0)
    property.subscribe { _ in
      if inside.update({
        $0 += 1
        return $0
      }) > 1 {
        overlaps.update { $0 += 1 }
      }
      sched_yield()
      inside.update { $0 -= 1 }
      calls.update { $0 += 1 }
    }
    let shared = UncheckedBox(property)

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 4) { index in
      for step in 0..<250 { shared.value.value = index * 1000 + step }
    }

    // then
    XCTAssertTrue(finished, "the setting threads did not finish in time")
    XCTAssertEqual(overlaps.value, 0)
    XCTAssertEqual(calls.value, 1001)
  }
}

/// `subscribe` returns a non-optional reference, as in ReactiveReSwift 5.0 (issue 31).
final class StreamTypeReferenceTests: XCTestCase {
  func test_subscribe_returnsANonOptionalReference() {
    // given
    let property = ObservableProperty(1)
    var received: [Int] = []
    // when: the 5.0 shape compiles: no optional chaining
    let reference = property.subscribe { received.append($0) }
    reference.dispose()
    property.value = 2
    // then
    XCTAssertEqual(received, [1])
    XCTAssertEqual(property.subscriptionCount, 0)
  }

  func test_subscribeThroughStreamType_returnsANonOptionalReference() {
    // given
    func subscribeAndEnd<Stream: StreamType>(
      _ stream: Stream, _ body: @escaping (Stream.ValueType) -> Void
    ) {
      let reference: Stream.DisposableType = stream.subscribe(body)
      reference.dispose()
    }
    let property = ObservableProperty("a")
    var received: [String] = []
    // when
    subscribeAndEnd(property) { received.append($0) }
    property.value = "b"
    // then
    XCTAssertEqual(received, ["a"])
    XCTAssertEqual(property.subscriptionCount, 0)
  }
}
