import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// The combining and timing operators of `Driver` and `Signal`, in virtual time through
/// `SharingScheduler.mock`.
final class SharedSequenceOperatorsTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  func test_driverZipAndCombineLatest_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
    let b = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(300)])
    var zipped: TestableObserver<String>!
    var combined: TestableObserver<String>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let left = a.asDriver(onErrorJustReturn: 0)
      let right = b.asDriver(onErrorJustReturn: "")
      let zip = Driver.zip(left, right).map { "\($0)\($1)" }
      let combine = Driver.combineLatest(left, right) { "\($0)\($1)" }
      zipped = scheduler.createObserver(String.self)
      combined = scheduler.createObserver(String.self)
      scheduler.scheduleAt(200) {
        _ = zip.asObservable().subscribe(zipped)
        _ = combine.asObservable().subscribe(combined)
      }
      scheduler.start()
    }
    // then: each source hops to the (mocked) main scheduler, one tick later
    XCTAssertEqual(
      zipped.events.map(\.time), [221, 241, 301])
    XCTAssertEqual(zipped.events.compactMap { $0.value.element }, ["1a", "2b"])
    XCTAssertEqual(combined.events.compactMap { $0.value.element }, ["1a", "2a", "2b"])
    XCTAssertEqual(combined.events.map(\.time), [221, 231, 241, 301])
  }

  func test_driverZipAndCombineLatest_collections() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var zipped: TestableObserver<[Int]>!
    var combined: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let drivers = [Driver.just(1), Driver.just(2), Driver.just(3)]
      zipped = scheduler.start { Driver.zip(drivers).asObservable() }
      let combinedScheduler = scheduler
      combined = combinedScheduler.createObserver(Int.self)
      _ = Driver.combineLatest(drivers) { $0.reduce(0, +) }.asObservable().subscribe(combined)
      combinedScheduler.advanceTo(1100)
    }
    // then
    XCTAssertEqual(zipped.events.compactMap { $0.value.element }, [[1, 2, 3]])
    XCTAssertEqual(combined.events.compactMap { $0.value.element }, [6])
  }

  func test_driverThrottleDebounceDelaySkip_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(212, 2), .next(214, 3), .next(250, 4), .completed(300),
    ])
    var throttled: TestableObserver<Int>!
    var debounced: TestableObserver<Int>!
    var delayed: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let driver = source.asDriver(onErrorJustReturn: 0)
      throttled = scheduler.createObserver(Int.self)
      debounced = scheduler.createObserver(Int.self)
      delayed = scheduler.createObserver(Int.self)
      let throttle = driver.throttle(.seconds(10), latest: false)
      let debounce = driver.debounce(.seconds(10))
      let delay = driver.skip(3).delay(.seconds(5))
      scheduler.scheduleAt(200) {
        _ = throttle.asObservable().subscribe(throttled)
        _ = debounce.asObservable().subscribe(debounced)
        _ = delay.asObservable().subscribe(delayed)
      }
      scheduler.start()
    }
    // then
    XCTAssertEqual(throttled.events, [.next(211, 1), .next(251, 4), .completed(301)])
    XCTAssertEqual(debounced.events, [.next(225, 3), .next(261, 4), .completed(301)])
    XCTAssertEqual(delayed.events, [.next(256, 4), .completed(306)])
  }

  func test_driverWithLatestFromAndSwitchLatest_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let taps = scheduler.createHotObservable([.next(210, ()), .next(230, ())])
    let text = scheduler.createHotObservable([.next(205, "a"), .next(220, "b")])
    var latest: TestableObserver<String>!
    var switched: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let signal = taps.asSignal(onErrorJustReturn: ())
      let driver = text.asDriver(onErrorJustReturn: "")
      let withLatest = signal.withLatestFrom(driver) { _, text in text.uppercased() }
      let outer = Driver.of(Driver.just(1), Driver.just(2)).switchLatest()
      latest = scheduler.createObserver(String.self)
      switched = scheduler.createObserver(Int.self)
      var subscriptions: [Disposable] = []
      scheduler.scheduleAt(200) {
        subscriptions.append(withLatest.asObservable().subscribe(latest))
        subscriptions.append(outer.asObservable().subscribe(switched))
      }
      scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
      scheduler.start()
    }
    // then
    XCTAssertEqual(latest.events, [.next(211, "A"), .next(231, "B")])
    XCTAssertEqual(switched.events.compactMap { $0.value.element }, [1, 2])
  }

  func test_sharedSequenceConcatMergeAndDistinct() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var concatenated: TestableObserver<Int>!
    var merged: TestableObserver<Int>!
    var distinct: TestableObserver<String>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      concatenated = scheduler.start { Driver.concat([Driver.of(1, 2), .just(3)]).asObservable() }
      let mergeScheduler = TestScheduler(initialClock: 0)
      SharingScheduler.mock(scheduler: mergeScheduler) {
        merged = mergeScheduler.start {
          Signal.merge([Signal.just(1), Signal.just(2)]).asObservable()
        }
      }
      let distinctScheduler = TestScheduler(initialClock: 0)
      SharingScheduler.mock(scheduler: distinctScheduler) {
        distinct = distinctScheduler.start {
          Driver.of("a", "A", "b")
            .distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
            .debug("driver", trimOutput: true)
            .asObservable()
        }
      }
    }
    // then
    XCTAssertEqual(concatenated.events.compactMap { $0.value.element }, [1, 2, 3])
    XCTAssertEqual(merged.events.compactMap { $0.value.element }.sorted(), [1, 2])
    XCTAssertEqual(distinct.events.compactMap { $0.value.element }, ["a", "b"])
  }

  func test_driveAndEmit_intoReplayAndOptionalRelays() throws {
    // given
    let replay = ReplayRelay<Int>.create(bufferSize: 2)
    let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
    let optionalPublish = PublishRelay<Int?>()
    var replayed: [Int] = []
    var optionalReplayed: [Int?] = []
    var published: [Int?] = []
    let watchers = [
      replay.subscribe(onNext: { replayed.append($0) }),
      optionalReplay.subscribe(onNext: { optionalReplayed.append($0) }),
      optionalPublish.subscribe(onNext: { published.append($0) }),
    ]
    // when
    let bindings = [
      Driver.of(1, 2, 3).drive(replay),
      Driver.just(4).drive(optionalReplay),
      Driver.just(5).drive(optionalPublish),
      Signal.just(6).emit(to: replay),
      Signal.just(7).emit(to: optionalReplay),
    ]
    runMainLoopUntil { replayed.count == 4 && optionalReplayed.count == 2 && published == [5] }
    // then: each trait keeps its own order; the relays replay the latest elements
    XCTAssertEqual(replayed.filter { $0 != 6 }, [1, 2, 3])
    XCTAssertEqual(Set(replayed), [1, 2, 3, 6])
    XCTAssertEqual(Set(optionalReplayed), [4, 7])
    XCTAssertEqual(try replay.take(2).toBlocking(timeout: 5).toArray(), Array(replayed.suffix(2)))
    XCTAssertEqual(
      try optionalReplay.take(1).toBlocking(timeout: 5).toArray(), [optionalReplayed.last!])
    (bindings + watchers).forEach { $0.dispose() }
  }

}
