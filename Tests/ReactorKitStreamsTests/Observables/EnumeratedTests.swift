import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class EnumeratedTests: ResourceTestCase {
  func test_enumerated_pairsElementsWithIndices() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, "a"), .next(220, "b"), .completed(230),
    ])
    // when
    let observer = scheduler.start { source.enumerated().map { "\($0.index)\($0.element)" } }
    // then
    XCTAssertEqual(observer.events, [.next(210, "0a"), .next(220, "1b"), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_enumerated_indicesRestartPerSubscription() {
    // given
    let enumerated = Observable.of("x", "y").enumerated()
    var indices: [Int] = []
    // when
    let first = enumerated.subscribe(onNext: { indices.append($0.index) })
    let second = enumerated.subscribe(onNext: { indices.append($0.index) })
    // then
    XCTAssertEqual(indices, [0, 1, 0, 1])
    first.dispose()
    second.dispose()
  }
}
