import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// The synchronous sources (`from`, `of`, `range`, `generate`, `just(_:scheduler:)`,
/// `from(optional:)`) stop producing once their subscription is disposed, inside or outside a
/// trampoline, and `from` iterates lazily.
final class SynchronousSourceTests: ResourceTestCase {
  // MARK: - Each source × each terminating operator

  func test_synchronousSources_stopOnceATerminatingOperatorIsDone_outsideATrampoline() {
    for source in Self.sources {
      for terminator in Self.terminators {
        assertStops(source, terminator, insideTrampoline: false)
      }
    }
  }

  func test_synchronousSources_stopOnceATerminatingOperatorIsDone_insideATrampoline() {
    for source in Self.sources {
      for terminator in Self.terminators {
        assertStops(source, terminator, insideTrampoline: true)
      }
    }
  }

  func test_range_twoMillionTakeOne_producesOneElement() {
    // given
    let produced = ProducedCounter()
    var received: [Int] = []
    // when
    runBounded { _ in
      _ = Observable.range(start: 0, count: 2_000_000)
        .do(onNext: { _ in produced.increment() })
        .take(1)
        .subscribe(onNext: { received.append($0) })
    }
    // then
    XCTAssertEqual(received, [0])
    XCTAssertEqual(produced.value, 1)
  }

  func test_generate_infiniteTakeFour_finishes() {
    // given
    let iterations = ProducedCounter()
    var received: [Int] = []
    var completed = false
    // when
    runBounded { abandoned in
      _ = Observable.generate(initialState: 0, condition: { _ in !abandoned.isSet }) {
        iterations.increment()
        return $0 + 1
      }
      .take(4)
      .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
    }
    // then
    XCTAssertEqual(received, [0, 1, 2, 3])
    XCTAssertTrue(completed)
    XCTAssertEqual(iterations.value, 3)
  }

  func test_generate_boundedTakeTwo_iteratesOnce() {
    // given
    var iterations = 0
    // when
    let elements = try? Observable.generate(initialState: 0, condition: { $0 < 100_000 }) {
      iterations += 1
      return $0 + 1
    }
    .take(2).toBlocking().toArray()
    // then
    XCTAssertEqual(elements, [0, 1])
    XCTAssertEqual(iterations, 1)
  }

  func test_from_infiniteLazySequence_buildsAndTakesWithoutHanging() {
    // given
    let pulled = ProducedCounter()
    var received: [Int] = []
    // when
    runBounded { abandoned in
      let naturals = AbandonableNaturals(abandoned: abandoned, pulled: pulled)
      let observable = Observable.from(naturals)
      _ = observable.take(3).subscribe(onNext: { received.append($0) })
    }
    // then
    XCTAssertEqual(received, [0, 1, 2])
    XCTAssertEqual(pulled.value, 3)
  }

  func test_from_iteratesAgainForEachSubscription() {
    // given
    let pulled = ProducedCounter()
    let observable = Observable.from(
      AbandonableNaturals(abandoned: StopFlag(), pulled: pulled).prefix(3))
    // when
    let first = try? observable.toBlocking().toArray()
    let second = try? observable.toBlocking().toArray()
    // then
    XCTAssertEqual(first, [0, 1, 2])
    XCTAssertEqual(second, [0, 1, 2])
  }

  func test_flatMapOfAnInfiniteFrom_stopsTheFastPathOnceTaken() {
    // given
    let pulled = ProducedCounter()
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    // when
    runBounded { abandoned in
      let subscription = subject.flatMap { _ in
        Observable.from(AbandonableNaturals(abandoned: abandoned, pulled: pulled))
      }
      .take(3)
      .subscribe(onNext: { received.append($0) })
      subject.onNext(1)
      subscription.dispose()
    }
    // then
    XCTAssertEqual(received, [0, 1, 2])
    XCTAssertEqual(pulled.value, 3)
  }

  func test_from_stoppedFromAnotherThread_stops() {
    // given
    let reachedTen = DispatchSemaphore(value: 0)
    let stop = PublishSubject<Void>()
    let produced = ProducedCounter()
    let finished = DispatchSemaphore(value: 0)
    let received = ProducedCounter()
    // when
    Thread.detachNewThread {
      _ = Observable.from(AbandonableNaturals(abandoned: StopFlag(), pulled: produced))
        .take(until: stop)
        .subscribe(onNext: { value in
          received.increment()
          if value == 10 { reachedTen.signal() }
        })
      finished.signal()
    }
    XCTAssertEqual(reachedTen.wait(timeout: .now() + 5), .success)
    stop.onNext(())
    // then
    XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "The source kept producing.")
    XCTAssertGreaterThanOrEqual(received.value, 11)
    // Elements pulled while the stop was on its way are dropped, not delivered.
    XCTAssertGreaterThanOrEqual(produced.value, received.value)
  }
}

// MARK: - The matrix

extension SynchronousSourceTests {
  /// A source of 0, 1, 2, … (at least 1,000 elements) that counts what it produces.
  fileprivate struct Source {
    let name: String
    let make: (ProducedCounter) -> Observable<Int>
  }

  /// A terminating operator, the elements it lets through and how many elements it needs.
  fileprivate struct Terminator {
    let name: String
    let apply: (Observable<Int>) -> Observable<Int>
    let expected: [Int]
    let needed: Int
  }

  fileprivate static var sources: [Source] {
    [
      Source(name: "from(array)") { produced in
        Observable.from(Array(0..<1_000)).do(onNext: { _ in produced.increment() })
      },
      Source(name: "from(lazy sequence)") { produced in
        Observable.from(
          (0..<1_000).lazy.map { value in
            produced.increment()
            return value
          })
      },
      Source(name: "of") { produced in
        Observable.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).do(onNext: { _ in produced.increment() })
      },
      Source(name: "range") { produced in
        Observable.range(start: 0, count: 1_000).map { value in
          produced.increment()
          return value
        }
      },
      Source(name: "generate") { produced in
        Observable.generate(initialState: 0, condition: { $0 < 1_000 }) { $0 + 1 }
          .do(onNext: { _ in produced.increment() })
      },
      Source(name: "generate (iterations)") { produced in
        Observable.generate(initialState: 0, condition: { $0 < 1_000 }) { state in
          produced.increment()
          return state + 1
        }
      },
    ]
  }

  fileprivate static var terminators: [Terminator] {
    [
      Terminator(name: "take(2)", apply: { $0.take(2) }, expected: [0, 1], needed: 2),
      Terminator(
        name: "take(while:)", apply: { $0.take(while: { $0 < 2 }) }, expected: [0, 1], needed: 3),
      Terminator(
        name: "take(until: predicate)", apply: { $0.take(until: { $0 == 2 }) }, expected: [0, 1],
        needed: 3),
      Terminator(
        name: "take(until: observable)",
        apply: { source in
          let stop = PublishSubject<Void>()
          return source.do(onNext: { if $0 == 1 { stop.onNext(()) } }).take(until: stop)
        }, expected: [0], needed: 2),
      Terminator(name: "element(at: 1)", apply: { $0.element(at: 1) }, expected: [1], needed: 2),
      Terminator(name: "first (take(1))", apply: { $0.take(1) }, expected: [0], needed: 1),
    ]
  }

  fileprivate func assertStops(_ source: Source, _ terminator: Terminator, insideTrampoline: Bool) {
    // given
    let produced = ProducedCounter()
    var received: [Int] = []
    var completed = false
    let context = "\(source.name).\(terminator.name), inside a trampoline: \(insideTrampoline)"
    // when
    let subscribe = {
      _ = terminator.apply(source.make(produced))
        .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
    }
    if insideTrampoline {
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        subscribe()
        XCTAssertEqual(received, [], "Subscribed inside a trampoline: \(context)")
        return Disposables.create()
      }
    } else {
      subscribe()
    }
    // then
    XCTAssertEqual(received, terminator.expected, context)
    XCTAssertTrue(completed, context)
    // The "iterations" source counts `iterate` calls, one fewer than the elements produced.
    let expectedCount =
      source.name == "generate (iterations)" ? terminator.needed - 1 : terminator.needed
    XCTAssertEqual(produced.value, expectedCount, "Produced elements: \(context)")
  }
}

// MARK: - Support

/// Runs `body` on another thread and fails (instead of hanging) when it has not returned
/// within `timeout` seconds; then sets the flag `body` receives, which makes the test's
/// infinite sources end, and waits for it to return.
private func runBounded(
  timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
  _ body: @escaping (StopFlag) -> Void
) {
  let abandoned = StopFlag()
  let finished = DispatchSemaphore(value: 0)
  let work = HandedOver(body)
  Thread.detachNewThread {
    work.value(abandoned)
    finished.signal()
  }
  if finished.wait(timeout: .now() + timeout) == .timedOut {
    XCTFail("Did not finish within \(timeout) s.", file: file, line: line)
    abandoned.set()
    _ = finished.wait(timeout: .now() + 60)
  }
}

private final class HandedOver<Value>: @unchecked Sendable {
  // Safety: handed to one other thread, then only read there.
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A thread-safe flag.
final class StopFlag: @unchecked Sendable {
  // Safety: `state` is guarded by `lock`.
  private let lock = NSLock()
  private var state = false

  var isSet: Bool { lock.withLock { state } }
  func set() { lock.withLock { state = true } }
}

/// A thread-safe counter.
final class ProducedCounter: @unchecked Sendable {
  // Safety: `count` is guarded by `lock`.
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}

/// 0, 1, 2, … until `abandoned` is set; counts the elements pulled.
private struct AbandonableNaturals: Sequence {
  let abandoned: StopFlag
  let pulled: ProducedCounter

  struct Iterator: IteratorProtocol {
    let abandoned: StopFlag
    let pulled: ProducedCounter
    var current = 0

    mutating func next() -> Int? {
      guard !abandoned.isSet else { return nil }
      pulled.increment()
      defer { current += 1 }
      return current
    }
  }

  func makeIterator() -> Iterator { Iterator(abandoned: abandoned, pulled: pulled) }
}

// MARK: - Other schedulers

extension SynchronousSourceTests {
  func test_range_onATestScheduler_stopsOnceTaken() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var produced = 0
    // when
    let observer = scheduler.start {
      Observable.range(start: 0, count: 1_000, scheduler: scheduler)
        .do(onNext: { _ in produced += 1 })
        .take(2)
    }
    // then
    XCTAssertEqual(observer.events, [.next(201, 0), .next(202, 1), .completed(202)])
    XCTAssertEqual(produced, 2)
  }

  func test_from_onADispatchQueue_stopsOnceTaken() {
    // given
    let queue = DispatchQueue(label: "from-take")
    let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "steps")
    let pulled = ProducedCounter()
    let received = LockedValues<Int>()
    let completed = DispatchSemaphore(value: 0)
    // when: subscribed on the queue, so the steps start once `subscribe` has returned (a step
    // running before that cannot be stopped yet, as in RxSwift)
    let subscription = queue.sync {
      Observable.from(
        AbandonableNaturals(abandoned: StopFlag(), pulled: pulled), scheduler: scheduler
      )
      .take(3)
      .subscribe(onNext: { received.append($0) }, onCompleted: { completed.signal() })
    }
    // then
    XCTAssertEqual(completed.wait(timeout: .now() + 5), .success)
    XCTAssertEqual(received.all, [0, 1, 2])
    XCTAssertEqual(pulled.value, 3)
    subscription.dispose()
  }

  func test_generate_errorThrownByIterate_endsTheSequenceOutsideATrampoline() {
    // given
    var events: [Event<Int>] = []
    // when
    _ = Observable.generate(initialState: 0, condition: { $0 < 10 }) { state in
      if state == 2 { throw TestError(1) }
      return state + 1
    }
    .subscribe { events.append($0) }
    // then
    XCTAssertEqual(events, [.next(0), .next(1), .next(2), .error(TestError(1))])
  }
}
