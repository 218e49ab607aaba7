import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class UsingTests: ResourceTestCase {
  func test_using_disposesTheResourceAfterTheSequencesSubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var log: [String] = []
    var source: TestableObservable<Int>!
    // when
    let observer = scheduler.start {
      Observable.using({ Resource(log) { log.append($0) } }) { resource in
        log.append("factory \(resource.id)")
        let cold = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        source = cold
        return Observable.create { observer in
          let subscription = cold.subscribe(observer)
          return Disposables.create {
            subscription.dispose()
            log.append("source disposed")
          }
        }
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(log, ["factory 0", "source disposed", "resource disposed"])
  }

  func test_using_disposalDisposesTheResource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var log: [String] = []
    // when
    let observer = scheduler.start(disposed: 250) {
      Observable.using({ Resource(log) { log.append($0) } }) { _ in
        scheduler.createHotObservable([.next(210, 1), .next(260, 2)]).asObservable()
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1)])
    XCTAssertEqual(log, ["resource disposed"])
  }

  func test_using_factoryErrorsFailTheSequence() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var log: [String] = []
    // when
    let resourceFails = scheduler.start {
      Observable<Int>.using({ () throws -> Resource in throw TestError(1) }) { _ in .just(1) }
    }
    let factoryFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      Observable<Int>.using({ Resource(log) { log.append($0) } }) { _ in throw TestError(2) }
    }
    // then
    XCTAssertEqual(resourceFails.events, [.error(200, TestError(1))])
    XCTAssertEqual(factoryFails.events, [.error(1200, TestError(2))])
    XCTAssertEqual(log, ["resource disposed"])
  }
}

private final class Resource: Disposable {
  let id: Int
  let record: (String) -> Void

  init(_ log: [String], record: @escaping (String) -> Void) {
    id = log.count
    self.record = record
  }

  func dispose() { record("resource disposed") }
}
