import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SampleTests: ResourceTestCase {
  func test_sample_emitsTheLatestNewElementAtEachTick() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(240, 3), .completed(300),
    ])
    let sampler = scheduler.createHotObservable([
      .next(225, "a"), .next(230, "b"), .next(250, "c"), .next(320, "d"), .next(400, "e"),
    ])
    // when
    let observer = scheduler.start { source.sample(sampler) }
    // then
    XCTAssertEqual(observer.events, [.next(225, 2), .next(250, 3), .completed(320)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(sampler.subscriptions, [Subscription(200, 320)])
  }

  func test_sample_defaultValueFillsTicksWithoutANewElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    let sampler = scheduler.createHotObservable([.next(205, ()), .next(215, ()), .next(220, ())])
    // when
    let observer = scheduler.start { source.sample(sampler, defaultValue: 0) }
    // then
    XCTAssertEqual(observer.events, [.next(205, 0), .next(215, 1), .next(220, 0)])
  }

  func test_sample_samplerCompletionSamplesOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(215)])
    let sampler = scheduler.createHotObservable([.completed(220, Int.self)])
    // when
    let observer = scheduler.start { source.sample(sampler) }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .completed(220)])
  }

  func test_sample_sourceErrorEndsTheResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
    let sampler = scheduler.createHotObservable([.next(220, 0), .next(240, 0)])
    // when
    let observer = scheduler.start { source.sample(sampler) }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .error(230, TestError(1))])
    XCTAssertEqual(sampler.subscriptions, [Subscription(200, 230)])
  }

  func test_sample_samplerErrorEndsTheResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    let sampler = scheduler.createHotObservable([.error(250, TestError(2), Int.self)])
    // when
    let observer = scheduler.start { source.sample(sampler) }
    // then
    XCTAssertEqual(observer.events, [.error(250, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
  }

  func test_sample_disposalEndsBothSubscriptions() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
    let sampler = scheduler.createHotObservable([.next(220, 0), .next(270, 0)])
    // when
    let observer = scheduler.start(disposed: 250) { source.sample(sampler) }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(sampler.subscriptions, [Subscription(200, 250)])
  }

  func test_sample_concurrentSourceAndSamplerDeliverSerially() {
    // given
    let source = PublishSubject<Int>()
    let sampler = PublishSubject<Void>()
    let probe = DeliveryProbe()
    let received = LockedValues<Int>()
    let subscription = source.sample(sampler).subscribe(onNext: { value in
      probe.enter()
      received.append(value)
      probe.leave()
    })
    // when
    runConcurrently(threads: 2) { index in
      for step in 1...2_000 {
        if index == 0 { source.onNext(step) } else { sampler.onNext(()) }
      }
    }
    sampler.onNext(())
    // then
    XCTAssertEqual(probe.overlaps, 0)
    XCTAssertEqual(received.all.last, 2_000)
    XCTAssertEqual(received.all, received.all.sorted())
    subscription.dispose()
  }
}
