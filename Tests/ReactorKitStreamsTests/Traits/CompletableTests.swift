import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class CompletableTests: ResourceTestCase {
  func test_completableCreate_reportsCompletionOrError() {
    // given
    var log: [String] = []
    let saving = Completable.create { observer in
      log.append("save")
      observer(.completed)
      observer(.error(TestError(9)))
      return Disposables.create()
    }
    // when
    _ = saving.subscribe(
      onCompleted: { log.append("completed") }, onError: { _ in log.append("error") },
      onDisposed: { log.append("disposed") })
    _ = Completable.error(TestError(1)).subscribe { event in
      if case .error = event { log.append("error event") }
    }
    // then
    XCTAssertEqual(log, ["save", "completed", "disposed", "error event"])
  }

  func test_completableAndThen_runsTheNextTraitAfterCompletion_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let save = scheduler.createColdObservable([.completed(10, Never.self)])
    let load = scheduler.createColdObservable([.next(20, "loaded"), .completed(20)])
    // when
    let observer = scheduler.start {
      save.asCompletable().andThen(load.asSingle()).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, "loaded"), .completed(230)])
    XCTAssertEqual(save.subscriptions, [Subscription(200, 210)])
    XCTAssertEqual(load.subscriptions, [Subscription(210, 230)])
  }

  func test_completableAndThen_errorSkipsTheRest_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let save = scheduler.createColdObservable([.error(10, TestError(3), Never.self)])
    let load = scheduler.createColdObservable([.next(20, 1), .completed(20)])
    // when
    let observer = scheduler.start {
      save.asCompletable().andThen(load.asObservable())
    }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(3))])
    XCTAssertEqual(load.subscriptions, [])
  }

  func test_completableAndThen_allTraits() {
    // given
    var order: [Int] = []
    func step(_ id: Int) -> Completable {
      .create { observer in
        order.append(id)
        observer(.completed)
        return Disposables.create()
      }
    }
    // when
    let maybe = try? step(1).andThen(step(2)).andThen(Maybe.just(3)).toBlocking().toArray()
    let observable = try? step(4).andThen(Observable.of(5, 6)).toBlocking().toArray()
    // then
    XCTAssertEqual(order, [1, 2, 4])
    XCTAssertEqual(maybe, [3])
    XCTAssertEqual(observable, [5, 6])
  }

  func test_completableConcatAndZip_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.completed(10, Never.self)])
    let b = scheduler.createColdObservable([.completed(30, Never.self)])
    // when
    let concatenated = scheduler.start {
      Completable.concat(a.asCompletable(), b.asCompletable()).asObservable()
    }
    let zipScheduler = TestScheduler(initialClock: 0)
    let c = zipScheduler.createColdObservable([.completed(10, Never.self)])
    let d = zipScheduler.createColdObservable([.completed(30, Never.self)])
    let zipped = zipScheduler.start {
      Completable.zip(c.asCompletable(), d.asCompletable()).asObservable()
    }
    // then
    XCTAssertEqual(concatenated.events, [.completed(240)])
    XCTAssertEqual(b.subscriptions, [Subscription(210, 240)])
    XCTAssertEqual(zipped.events, [.completed(230)])
    XCTAssertEqual(c.subscriptions, [Subscription(200, 210)])
    XCTAssertEqual(d.subscriptions, [Subscription(200, 230)])
  }

  func test_asCompletable_ignoresElements() {
    // when
    let result = Observable.of(1, 2, 3).ignoreElements().asCompletable().toBlocking().materialize()
    let ignored = Observable.of(1, 2).ignoreElements().asCompletable().toBlocking()
      .materialize()
    // then
    XCTAssertEqual(result.elements.count, 0)
    XCTAssertNil(result.error)
    XCTAssertNil(ignored.error)
  }

  func test_completableDo_seesCompletion() {
    // given
    var log: [String] = []
    // when
    _ = Completable.empty()
      .do(onCompleted: { log.append("onCompleted") }, afterCompleted: { log.append("after") })
      .subscribe(onCompleted: { log.append("completed") })
    // then
    XCTAssertEqual(log, ["onCompleted", "completed", "after"])
  }
}
