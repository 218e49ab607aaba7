import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ReplaySubjectTests: ResourceTestCase {
  func test_replaySubject_replaysTheLastElementsAfterManyCompactions() {
    // given
    let subject = ReplaySubject<Int>.create(bufferSize: 3)
    // when
    for value in 0..<1_000 { subject.onNext(value) }
    var received: [Int] = []
    let subscription = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(1_000)
    // then
    XCTAssertEqual(received, [997, 998, 999, 1_000])
    subscription.dispose()
  }

  func test_replaySubject_zeroBufferReplaysOnlyTheTerminalEvent() {
    // given
    let subject = ReplaySubject<Int>.create(bufferSize: 0)
    subject.onNext(1)
    subject.onCompleted()
    var received: [Event<Int>] = []
    // when
    _ = subject.subscribe { received.append($0) }
    // then
    XCTAssertEqual(received, [.completed])
  }

  func test_replaySubject_unboundReplaysEverythingThenTheError() {
    // given
    let subject = ReplaySubject<Int>.createUnbound()
    for value in 0..<100 { subject.onNext(value) }
    subject.onError(TestError(1))
    subject.onNext(100)
    var received: [Event<Int>] = []
    // when
    _ = subject.subscribe { received.append($0) }
    // then
    XCTAssertEqual(received, (0..<100).map { .next($0) } + [.error(TestError(1))])
  }

  func test_replaySubject_disposeDropsTheBufferAndRejectsSubscribers() {
    // given
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(1)
    // when
    subject.dispose()
    subject.onNext(2)
    var received: [Event<Int>] = []
    _ = subject.subscribe { received.append($0) }
    // then
    XCTAssertEqual(received.count, 1)
    XCTAssertTrue(
      received.first.map { errorsEqual($0.error!, RxError.disposed(object: "")) } ?? false)
    XCTAssertTrue(subject.isDisposed)
  }
}
