import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ReplayRelayTests: ResourceTestCase {
  func test_replayRelay_replaysTheBufferAndNeverTerminates_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let relay = ReplayRelay<Int>.create(bufferSize: 2)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .error(240, TestError(1)),
    ])
    var binding: Disposable?
    scheduler.scheduleAt(205) {
      binding = source.subscribe(onNext: relay.accept, onError: { _ in })
    }
    scheduler.scheduleAt(250) { binding?.dispose() }
    // when
    let late = scheduler.start(created: 100, subscribed: 235, disposed: 1000) {
      relay.asObservable()
    }
    // then
    XCTAssertEqual(late.events, [.next(235, 2), .next(235, 3)])
    XCTAssertTrue(relay.asObservable() === relay.asObservable())
  }

  func test_replayRelayUnbound_replaysEverything() {
    // given
    let relay = ReplayRelay<String>.createUnbound()
    // when
    ["a", "b", "c"].forEach(relay.accept)
    // then
    XCTAssertEqual(try relay.take(3).toBlocking().toArray(), ["a", "b", "c"])
  }

  func test_bindToOptionalRelays_wrapsElements() {
    // given
    let publish = PublishRelay<Int?>()
    let behavior = BehaviorRelay<Int?>(value: nil)
    let replay = ReplayRelay<Int?>.create(bufferSize: 3)
    var published: [Int?] = []
    let watcher = publish.subscribe(onNext: { published.append($0) })
    // when
    let bindings = [
      Observable.of(1, 2).bind(to: publish),
      Observable.of(3).bind(to: behavior),
      Observable.of(4, 5).bind(to: replay),
      Observable.of(6).bind(to: publish, publish),
    ]
    behavior.accept(7)
    replay.accept(nil)
    // then
    XCTAssertEqual(published, [1, 2, 6, 6])
    XCTAssertEqual(behavior.value, 7)
    XCTAssertEqual(try replay.take(3).toBlocking().toArray(), [4, 5, nil])
    (bindings + [watcher]).forEach { $0.dispose() }
  }

  func test_bindToReplayRelay_sendsEveryElement() {
    // given
    let first = ReplayRelay<Int>.create(bufferSize: 5)
    let second = ReplayRelay<Int>.create(bufferSize: 5)
    // when
    let binding = Observable.of(1, 2, 3).bind(to: first, second)
    // then
    XCTAssertEqual(try first.take(3).toBlocking().toArray(), [1, 2, 3])
    XCTAssertEqual(try second.take(3).toBlocking().toArray(), [1, 2, 3])
    binding.dispose()
  }
}
