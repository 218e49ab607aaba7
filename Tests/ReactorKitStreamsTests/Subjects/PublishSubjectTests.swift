import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class PublishSubjectTests: ResourceTestCase {
  func test_publishSubject_reentrantElementsRunAfterTheCurrentOneForEveryObserver() {
    // given
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let first = subject.subscribe(onNext: { value in
      log.append("a\(value)")
      if value < 2 { subject.onNext(value + 1) }
    })
    let second = subject.subscribe(onNext: { value in log.append("b\(value)") })
    // when
    subject.onNext(0)
    // then
    XCTAssertEqual(log, ["a0", "b0", "a1", "b1", "a2", "b2"])
    first.dispose()
    second.dispose()
  }

  func test_publishSubject_reentrantCompletionEndsAfterTheCurrentElement() {
    // given
    let subject = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let first = subject.subscribe(onNext: { _ in subject.onCompleted() })
    let second = subject.subscribe { events.append($0) }
    // when
    subject.onNext(1)
    subject.onNext(2)
    // then
    XCTAssertEqual(events, [.next(1), .completed])
    XCTAssertFalse(subject.hasObservers)
    first.dispose()
    second.dispose()
  }

  func test_publishSubject_disposingInsideOnNextStopsLaterElements() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var subscription: Disposable?
    subscription = subject.subscribe(onNext: { value in
      received.append(value)
      subscription?.dispose()
      subscription = nil
    })
    // when
    subject.onNext(1)
    subject.onNext(2)
    // then
    XCTAssertEqual(received, [1])
    XCTAssertFalse(subject.hasObservers)
  }

  func test_publishSubject_subscribeClosuresReceiveTerminalEventsOnce() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var errors = 0
    var disposals = 0
    _ = subject.subscribe(
      onNext: { received.append($0) }, onError: { _ in errors += 1 },
      onDisposed: { disposals += 1 })
    // when
    subject.onNext(1)
    subject.onError(TestError(1))
    subject.onNext(2)
    // then
    XCTAssertEqual(received, [1])
    XCTAssertEqual(errors, 1)
    XCTAssertEqual(disposals, 1)
  }

  func test_publishSubject_sendersRacingTheDeliverer_loseNothingAndNeverOverlap() {
    // given: observers that yield, so senders often arrive just as the deliverer finishes
    let subject = PublishSubject<Int>()
    let threads = 4
    let perThread = StressConfiguration.iterations(3_000)
    let active = AtomicBox<Int>(0)
    let overlaps = AtomicBox<Int>(0)
    let received = LockedValues<Int>()
    let subscription = subject.subscribe(onNext: { value in
      if active.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
        overlaps.wrappingAdd(1, ordering: .relaxed)
      }
      if value % 7 == 0 { sched_yield() }
      received.append(value)
      active.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    })
    // when
    runConcurrently(threads: threads) { thread in
      for index in 0..<perThread { subject.onNext(thread * perThread + index) }
    }
    // then: everything arrived once, each sender's elements in the order sent
    let values = received.all
    XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
    XCTAssertEqual(values.count, threads * perThread)
    for thread in 0..<threads {
      let own = values.filter { $0 / perThread == thread }
      XCTAssertEqual(own, Array(thread * perThread..<(thread + 1) * perThread))
    }
    subscription.dispose()
  }

  func test_behaviorSubject_replaysTheLatestValueToNewSubscribers() throws {
    // given
    let subject = BehaviorSubject(value: 0)
    subject.onNext(1)
    subject.onNext(2)
    var received: [Int] = []
    // when
    let subscription = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(3)
    // then
    XCTAssertEqual(received, [2, 3])
    XCTAssertEqual(try subject.value(), 3)
    subscription.dispose()
  }

  func test_subjects_subscriptionDisposedAfterTheSubjectWasFreed_isSafe() {
    // given
    var subscriptions: [Disposable] = []
    var received: [Int] = []
    weak var weakPublish: PublishSubject<Int>?
    weak var weakBehavior: BehaviorSubject<Int>?
    do {
      let publish = PublishSubject<Int>()
      let behavior = BehaviorSubject(value: 1)
      weakPublish = publish
      weakBehavior = behavior
      subscriptions.append(publish.subscribe(onNext: { received.append($0) }))
      subscriptions.append(behavior.subscribe(onNext: { received.append($0) }))
      publish.onNext(2)
    }
    // when: the subjects are gone (their subscriptions do not keep them)
    XCTAssertNil(weakPublish)
    XCTAssertNil(weakBehavior)
    for subscription in subscriptions { subscription.dispose() }
    // then
    XCTAssertEqual(received, [1, 2])
  }

  func test_subjects_dispose_releasesObserversAfterTheLock() {
    // given: observers whose release subscribes to the same subject again (user code in a
    // deinitialiser), reachable only through the subjects (their disposables were dropped)
    let publish = PublishSubject<Int>()
    let behavior = BehaviorSubject(value: 0)
    let replay = ReplaySubject<Int>.create(bufferSize: 1)
    let released = AtomicBox<Int>(0)
    for subject in [publish.asObservable(), behavior.asObservable(), replay.asObservable()] {
      let tripwire = ResubscribeOnRelease(subject) {
        released.wrappingAdd(1, ordering: .relaxed)
      }
      _ = subject.subscribe(AnyObserver<Int> { _ in withExtendedLifetime(tripwire) {} })
    }
    // when: disposing on another thread, which would deadlock if the observers were released
    // with the subject's lock held
    let done = DispatchSemaphore(value: 0)
    let subjects = UncheckedSubjects(publish: publish, behavior: behavior, replay: replay)
    Thread.detachNewThread {
      subjects.publish.dispose()
      subjects.behavior.dispose()
      subjects.replay.dispose()
      done.signal()
    }
    // then
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "dispose deadlocked")
    XCTAssertEqual(released.load(ordering: .relaxed), 3)
  }
}

/// Subscribes to `subject` again when released, then calls `onRelease`.
private final class ResubscribeOnRelease {
  let subject: Observable<Int>
  let onRelease: () -> Void
  init(_ subject: Observable<Int>, onRelease: @escaping () -> Void) {
    self.subject = subject
    self.onRelease = onRelease
  }
  deinit {
    subject.subscribe(onNext: { _ in }).dispose()
    onRelease()
  }
}

private struct UncheckedSubjects: @unchecked Sendable {
  // Safety: subjects are thread-safe.
  let publish: PublishSubject<Int>
  let behavior: BehaviorSubject<Int>
  let replay: ReplaySubject<Int>
}
