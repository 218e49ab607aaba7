import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `combineLatest` and `zip` over 2 to 8 sources: the fixed arities are thin wrappers over one
/// core, so each arity is checked for wiring (every source at its position), completion,
/// errors and disposal.
final class CombineArityTests: ResourceTestCase {
  /// Source `index` (0-based) emits `index + 1` at 210 + index and `10 * (index + 1)` at 300,
  /// then completes at 400 + index.
  private func makeSources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
    (0..<count).map { index in
      scheduler.createHotObservable([
        .next(210 + index, index + 1), .next(300, 10 * (index + 1)),
        .completed(400 + index),
      ])
    }
  }

  func test_combineLatest_everyArityWithSelectorAndTuples() {
    for arity in 2...8 {
      // given
      let scheduler = TestScheduler(initialClock: 0)
      let s = makeSources(scheduler, count: arity)
      let ready = 210 + arity - 1
      // when
      let observer = scheduler.start { () -> Observable<[Int]> in
        switch arity {
        case 2: return Observable.combineLatest(s[0], s[1]) { [$0, $1] }
        case 3: return Observable.combineLatest(s[0], s[1], s[2]).map { [$0, $1, $2] }
        case 4: return Observable.combineLatest(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5:
          return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4])
            .map { [$0, $1, $2, $3, $4] }
        case 6:
          return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) {
            [$0, $1, $2, $3, $4, $5]
          }
        case 7:
          return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
            .map { [$0, $1, $2, $3, $4, $5, $6] }
        default:
          return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
            [$0, $1, $2, $3, $4, $5, $6, $7]
          }
        }
      }
      // then
      let first = Array(1...arity)
      var expected: [Recorded<Event<[Int]>>] = [.next(ready, first)]
      var latest = first
      for index in 0..<arity {
        latest[index] = 10 * (index + 1)
        expected.append(.next(300, latest))
      }
      expected.append(.completed(400 + arity - 1))
      XCTAssertEqual(observer.events, expected, "arity \(arity)")
      for (index, source) in s.enumerated() {
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400 + index)], "arity \(arity)")
      }
    }
  }

  func test_zip_everyArityWithSelectorAndTuples() {
    for arity in 2...8 {
      // given
      let scheduler = TestScheduler(initialClock: 0)
      let s = makeSources(scheduler, count: arity)
      // when
      let observer = scheduler.start { () -> Observable<[Int]> in
        switch arity {
        case 2: return Observable.zip(s[0], s[1]).map { [$0, $1] }
        case 3: return Observable.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: return Observable.zip(s[0], s[1], s[2], s[3]).map { [$0, $1, $2, $3] }
        case 5: return Observable.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6:
          return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5])
            .map { [$0, $1, $2, $3, $4, $5] }
        case 7:
          return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) {
            [$0, $1, $2, $3, $4, $5, $6]
          }
        default:
          return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
            .map { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
      }
      // then
      XCTAssertEqual(
        observer.events,
        [
          .next(210 + arity - 1, Array(1...arity)),
          .next(300, (1...arity).map { $0 * 10 }),
          .completed(400 + arity - 1),
        ], "arity \(arity)")
    }
  }

  func test_combineLatest_eightSources_errorEndsAndDisposesAll() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let s = (0..<8).map { index in
      scheduler.createHotObservable(
        index == 5 ? [.error(250, TestError(5))] : [Recorded.next(210, index)])
    }
    // when
    let latest = scheduler.start {
      Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
        $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
      }
    }
    // then
    XCTAssertEqual(latest.events, [.error(250, TestError(5))])
    for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 250)]) }
  }

  func test_zip_eightSources_disposalEndsEverySubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let s = (0..<8).map { _ in
      scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    }
    // when
    let observer = scheduler.start(disposed: 225) {
      Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
        a, _, _, _, _, _, _, h in a + h
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .next(220, 4)])
    for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 225)]) }
  }

  func test_zip_eightSources_throwingSelectorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let s = (0..<8).map { _ in scheduler.createHotObservable([.next(210, 1), .next(220, 2)]) }
    // when
    let observer = scheduler.start {
      Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
        a, _, _, _, _, _, _, _ -> Int in
        if a == 2 { throw TestError(2) }
        return a
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
    for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 220)]) }
  }

  func test_combineLatest_reentrantSourceIsDeliveredAfterTheCurrentElement() {
    // given
    let first = PublishSubject<Int>()
    let second = BehaviorSubject(value: 0)
    var received: [Int] = []
    let subscription = Observable.combineLatest(first, second) { $0 * 100 + $1 }
      .subscribe(onNext: { value in
        received.append(value)
        if value == 100 { second.onNext(1) }
      })
    // when
    first.onNext(1)
    // then
    XCTAssertEqual(received, [100, 101])
    subscription.dispose()
  }

  func test_eightSources_concurrentThreadsPairEveryElementSerially() {
    // given
    let subjects = (0..<8).map { _ in PublishSubject<Int>() }
    let s = subjects.map { $0.asObservable() }
    let probe = DeliveryProbe()
    let pairs = LockedValues<Int>()
    let latest = LockedValues<Int>()
    let zipped = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
      a, b, c, d, e, f, g, h in [a, b, c, d, e, f, g, h]
    }
    .subscribe(onNext: { values in
      probe.enter()
      if Set(values).count == 1 { pairs.append(values[0]) }
      probe.leave()
    })
    let combined = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
      a, b, c, d, e, f, g, h in a + b + c + d + e + f + g + h
    }
    .subscribe(onNext: { latest.append($0) })
    // when
    runConcurrently(threads: 8) { index in
      for step in 0..<500 {
        subjects[index].onNext(step)
        if step % 50 == 0 { sched_yield() }
      }
    }
    // then
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(pairs.all, Array(0..<500))
    XCTAssertEqual(latest.all.last, 8 * 499)
    zipped.dispose()
    combined.dispose()
  }
}
