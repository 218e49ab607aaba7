import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DoTests: ResourceTestCase {
  func test_do_runsCallbacksInRxSwiftOrder() {
    // given
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let observable = subject.do(
      onNext: { log.append("onNext \($0)") },
      afterNext: { log.append("afterNext \($0)") },
      onCompleted: { log.append("onCompleted") },
      afterCompleted: { log.append("afterCompleted") },
      onSubscribe: { log.append("onSubscribe") },
      onSubscribed: { log.append("onSubscribed") },
      onDispose: { log.append("onDispose") })
    // when
    let subscription = observable.subscribe(
      onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
    subject.onNext(1)
    subject.onCompleted()
    subscription.dispose()
    // then
    XCTAssertEqual(
      log,
      [
        "onSubscribe", "onSubscribed", "onNext 1", "next 1", "afterNext 1", "onCompleted",
        "completed", "afterCompleted", "onDispose",
      ])
  }

  func test_do_sourceTerminatingDuringSubscribe_runsOnDisposeAfterOnSubscribed() {
    // given
    var log: [String] = []
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      return Disposables.create { log.append("source disposed") }
    }
    // when
    let subscription = source.do(
      onNext: { log.append("onNext \($0)") },
      onCompleted: { log.append("onCompleted") },
      afterCompleted: { log.append("afterCompleted") },
      onSubscribe: { log.append("onSubscribe") },
      onSubscribed: { log.append("onSubscribed") },
      onDispose: { log.append("onDispose") }
    ).subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
    subscription.dispose()
    // then
    XCTAssertEqual(
      log,
      [
        "onSubscribe", "onNext 1", "next 1", "onCompleted", "completed", "afterCompleted",
        "source disposed", "onSubscribed", "onDispose",
      ])
  }

  func test_do_errorCallbacksAndDisposal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    var log: [String] = []
    // when
    let observer = scheduler.start {
      source.do(
        onError: { log.append("onError \($0 as? TestError == TestError(1))") },
        afterError: { _ in log.append("afterError") },
        onDispose: { log.append("onDispose") })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(log, ["onError true", "afterError", "onDispose"])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_do_throwingOnNextEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start {
      source.do(onNext: { if $0 == 2 { throw TestError(2) } })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_do_throwingAfterNextEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start { source.do(afterNext: { _ in throw TestError(3) }) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(210, TestError(3))])
  }

  func test_do_onDisposeRunsOnceOnDisposal() {
    // given
    var disposals = 0
    let subject = PublishSubject<Int>()
    let subscription = subject.do(onDispose: { disposals += 1 }).subscribe()
    // when
    subscription.dispose()
    subscription.dispose()
    // then
    XCTAssertEqual(disposals, 1)
    XCTAssertFalse(subject.hasObservers)
  }
}
