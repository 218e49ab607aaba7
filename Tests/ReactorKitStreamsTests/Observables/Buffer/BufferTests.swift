import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class BufferTests: ResourceTestCase {
  func test_buffer_emitsOnCountOrTimeSpanAndTheRestOnCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .next(350, 5),
      .completed(360),
    ])
    // when
    let observer = scheduler.start {
      source.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(230, [1, 2, 3]), .next(300, [4]), .next(360, [5]), .completed(360)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 360)])
  }

  func test_buffer_emptyTimeSpansEmitEmptyArrays() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([Recorded<Event<Int>>]())
    // when
    let observer = scheduler.start(disposed: 350) {
      source.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(300, [])])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 350)])
  }

  func test_buffer_errorDropsTheCollectedElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start {
      source.buffer(timeSpan: .seconds(50), count: 5, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_window_splitsByCountAndTimeSpan() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(240, 3), .completed(300),
    ])
    var windows: [TestableObserver<Int>] = []
    var subscriptions: [Disposable] = []
    // when
    let outer = scheduler.start {
      source.window(timeSpan: .seconds(50), count: 2, scheduler: scheduler)
        .do(onNext: { window in
          let observer = scheduler.createObserver(Int.self)
          windows.append(observer)
          subscriptions.append(window.subscribe(observer))
        })
        .map { _ in windows.count }
    }
    // then
    XCTAssertEqual(
      outer.events, [.next(200, 1), .next(220, 2), .next(270, 3), .completed(300)])
    XCTAssertEqual(windows.map(\.events).count, 3)
    XCTAssertEqual(windows[0].events, [.next(210, 1), .next(220, 2), .completed(220)])
    XCTAssertEqual(windows[1].events, [.next(240, 3), .completed(270)])
    XCTAssertEqual(windows[2].events, [.completed(300)])
    subscriptions.forEach { $0.dispose() }
  }

  func test_window_errorFailsTheCurrentWindowAndTheResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(2))])
    let window = scheduler.createObserver(Int.self)
    var subscription: Disposable?
    // when
    let outer = scheduler.start {
      source.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler)
        .do(onNext: { subscription = $0.subscribe(window) })
        .map { _ in 0 }
    }
    // then
    XCTAssertEqual(outer.events, [.next(200, 0), .error(220, TestError(2))])
    XCTAssertEqual(window.events, [.next(210, 1), .error(220, TestError(2))])
    subscription?.dispose()
  }
}
