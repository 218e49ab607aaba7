import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread that delivers a subject's queued events (the first caller of `on` while others
/// queue behind it) must let go of each event once delivered, and must return within a bound
/// while other threads keep producing: it hands the rest of the queue to one of them.
final class SubjectDrainTests: ResourceTestCase {
  func test_queuedEvents_areReleasedOnceDelivered() {
    // given: events queued behind a delivery (reentrantly, from the observer)
    let subject = PublishSubject<Tracked>()
    let queued = 100
    var liveWhenDelivered: [Int] = []
    var started = false
    let subscription = subject.subscribe(onNext: { tracked in
      if !started {
        started = true
        for _ in 0..<queued { subject.onNext(Tracked()) }
      }
      liveWhenDelivered.append(Tracked.live.load(ordering: .acquiring))
      withExtendedLifetime(tracked) {}
    })
    defer { subscription.dispose() }
    // when
    subject.onNext(Tracked())
    // then: while the k-th queued event is delivered, the ones before it are gone
    XCTAssertEqual(liveWhenDelivered.count, queued + 1)
    for (index, live) in liveWhenDelivered.enumerated().dropFirst() {
      // The first event (still being delivered to its caller's stack) and those not yet
      // delivered, this one included.
      let expected = 1 + (queued - index + 1)
      XCTAssertLessThanOrEqual(
        live, expected, "delivering queued event \(index): delivered events are still referenced")
    }
    XCTAssertEqual(Tracked.live.load(ordering: .acquiring), 0)
  }

  func test_publishSubject_drainingCallerReturnsWhileProducersKeepSending() {
    assertDrainingCallerReturns(PublishSubject<Int>())
  }

  func test_behaviorSubject_drainingCallerReturnsWhileProducersKeepSending() {
    assertDrainingCallerReturns(BehaviorSubject(value: -1))
  }

  func test_replaySubject_drainingCallerReturnsWhileProducersKeepSending() {
    assertDrainingCallerReturns(ReplaySubject<Int>.create(bufferSize: 1))
  }

  /// One thread becomes the deliverer and is held in its first delivery until producers have
  /// queued work behind it; then producers keep sending until that thread's `onNext` returns
  /// (or a deadline passes). The deliverer must return long before the deadline, every event
  /// must be delivered once, in each producer's order.
  private func assertDrainingCallerReturns<Subject: SubjectType & ObserverType & Sendable>(
    _ subject: Subject, file: StaticString = #filePath, line: UInt = #line
  ) where Subject.Element == Int, Subject.Observer.Element == Int {
    // given
    let producers = 3
    let deadline = Date().addingTimeInterval(Double(10 * StressConfiguration.multiplier))
    let stop = Flag()
    let queuedBehind = Counter()
    let delivering = Flag()
    let drainerReturned = Flag()
    let returnedInTime = LockedBox(false)
    let delivered = Counter()
    let received = LockedValues<Int>()
    let subscription = subject.subscribe(onNext: { value in
      if value == 0 {
        // Hold the first delivery until work is queued behind it.
        delivering.set()
        while queuedBehind.value < 64 && Date() < deadline { sched_yield() }
      }
      guard value > 0 else { return }
      received.append(value)
      delivered.increment()
      // A slow observer (busy, not yielding): the producers outpace it.
      let until = DispatchTime.now().uptimeNanoseconds + 20_000
      while DispatchTime.now().uptimeNanoseconds < until {}
    })
    defer { subscription.dispose() }
    let sent = (0..<producers).map { _ in Counter() }
    // when
    runConcurrently(threads: producers + 1) { index in
      if index == producers {
        subject.on(.next(0))
        drainerReturned.set()
        returnedInTime.withLock { $0 = Date() < deadline }
        stop.set()
        return
      }
      // Producers wait until the deliverer is busy, then send until it returned.
      while !delivering.isSet && Date() < deadline { sched_yield() }
      while !stop.isSet && Date() < deadline {
        // Keep a backlog, so the deliverer never runs out of work, but a bounded one.
        if queuedBehind.value - delivered.value > 2_000 {
          sched_yield()
          continue
        }
        let next = sent[index].increment() - 1
        subject.on(.next(index + 1 + next * producers))
        queuedBehind.increment()
      }
      stop.set()
    }
    // then
    XCTAssertTrue(drainerReturned.isSet, file: file, line: line)
    XCTAssertTrue(
      returnedInTime.withLock { $0 },
      "the draining caller did not return while producers kept sending (they stopped at the "
        + "deadline)", file: file, line: line)
    let total = sent.reduce(0) { $0 + $1.value }
    let values = received.all
    XCTAssertEqual(values.count, total, "every event is delivered once", file: file, line: line)
    for producer in 0..<producers {
      let own = values.filter { ($0 - 1) % producers == producer }
      XCTAssertEqual(own, own.sorted(), "producer \(producer)'s order", file: file, line: line)
    }
  }
}

/// Counts its live instances.
private final class Tracked: Sendable {
  static let live = AtomicBox<Int>(0)
  init() { Self.live.wrappingAdd(1, ordering: .relaxed) }
  deinit { Self.live.wrappingSubtract(1, ordering: .relaxed) }
}

private final class Flag: Sendable {
  private let storage = AtomicBox<Bool>(false)
  var isSet: Bool { storage.load(ordering: .acquiring) }
  func set() { storage.store(true, ordering: .releasing) }
}

private final class Counter: Sendable {
  private let storage = AtomicBox<Int>(0)
  var value: Int { storage.load(ordering: .acquiring) }
  @discardableResult
  func increment() -> Int { storage.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue }
}
