import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// The lifetime rules of `subscribe(onNext:onError:onCompleted:onDisposed:)`: the returned
/// disposable may be dropped while the subscription runs on; a subscription that ended lets
/// go of every closure even while its disposable is kept; `onDisposed` runs once, however the
/// end comes about.
final class SubscribeTests: ResourceTestCase {
  func test_subscribe_droppedDisposable_keepsDeliveringFromAnotherThread() {
    // given: the disposable is dropped at once
    let subject = PublishSubject<Int>()
    let events = LockedValues<String>()
    _ = subject.subscribe(
      onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") },
      onDisposed: { events.append("disposed") })
    // when
    runConcurrently(threads: 1) { _ in
      for value in 1...3 { subject.onNext(value) }
      subject.onCompleted()
    }
    // then
    XCTAssertEqual(events.all, ["1", "2", "3", "completed", "disposed"])
    XCTAssertFalse(subject.hasObservers)
  }

  func test_subscribe_droppedDisposableOfASourceThatDropsItsObserver_freesTheSubscription() {
    // given: `never` keeps no reference to its observer
    var owner: Captured? = Captured()
    weak let weakOwner = owner
    let start = Resources.total
    // when
    if let owner {
      _ = Observable<Int>.never().subscribe(
        onNext: { _ in owner.touch() }, onDisposed: { owner.touch() })
    }
    owner = nil
    // then: nothing is left to end the subscription, so nothing may keep it
    XCTAssertNil(weakOwner)
    XCTAssertEqual(Resources.total, start)
  }

  func test_subscribe_terminalEventDuringSubscribe_endsTheSubscriptionBeforeItReturns() {
    // given
    var events: [String] = []
    var sourceDisposed = false
    // when
    let subscription = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onError(TestError(1))
      observer.onNext(2)
      return Disposables.create { sourceDisposed = true }
    }
    .subscribe(
      onNext: { events.append("next \($0)") }, onError: { _ in events.append("error") },
      onCompleted: { events.append("completed") }, onDisposed: { events.append("disposed") })
    // then
    XCTAssertEqual(events, ["next 1", "error", "disposed"])
    XCTAssertTrue(sourceDisposed)
    XCTAssertTrue((subscription as? Cancelable)?.isDisposed ?? false)
    subscription.dispose()
    XCTAssertEqual(events.count, 3)
  }

  func test_subscribe_endedSubscriptionKeptAlive_releasesItsTerminalClosures() {
    // given: closures that capture an object, and are all that references it
    let subject = PublishSubject<Int>()
    var owner: Captured? = Captured()
    weak let weakOwner = owner
    var subscription: Disposable?
    if let owner {
      subscription = subject.subscribe(
        onError: { _ in owner.touch() }, onCompleted: { owner.touch() },
        onDisposed: { owner.touch() })
    }
    owner = nil
    XCTAssertNotNil(weakOwner)
    // when
    subject.onCompleted()
    // then
    XCTAssertNil(weakOwner, "the ended subscription kept its closures")
    XCTAssertTrue((subscription as? Cancelable)?.isDisposed ?? false)
  }

  func test_subscribe_disposeInsideOnNext_stopsDeliveryAndCallsOnDisposedOnce() {
    // given
    let subject = PublishSubject<Int>()
    var events: [String] = []
    var subscription: Disposable?
    subscription = subject.subscribe(
      onNext: {
        events.append("next \($0)")
        subscription?.dispose()
        events.append("after dispose")
      }, onCompleted: { events.append("completed") }, onDisposed: { events.append("disposed") })
    // when
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    // then
    XCTAssertEqual(events, ["next 1", "disposed", "after dispose"])
    XCTAssertFalse(subject.hasObservers)
  }

  func test_subscribe_disposeInsideOnError_callsOnDisposedOnceInsideIt() {
    // given
    let subject = PublishSubject<Int>()
    var events: [String] = []
    var subscription: Disposable?
    subscription = subject.subscribe(
      onError: { _ in
        events.append("error")
        subscription?.dispose()
        events.append("after dispose")
      }, onDisposed: { events.append("disposed") })
    // when
    subject.onError(TestError(1))
    subscription?.dispose()
    // then
    XCTAssertEqual(events, ["error", "disposed", "after dispose"])
  }

  func test_subscribe_disposeRacingCompletion_endsOnceAndReleasesTheClosures() {
    for _ in 0..<StressConfiguration.iterations(500) {
      // given
      let subject = PublishSubject<Int>()
      let completions = AtomicBox<Int>(0)
      let disposals = AtomicBox<Int>(0)
      var owner: Captured? = Captured()
      weak let weakOwner = owner
      let subscription = SharedSlot<Disposable?>(nil)
      if let owner {
        subscription.value = subject.subscribe(
          onNext: { _ in owner.touch() },
          onError: { _ in owner.touch() },
          onCompleted: {
            owner.touch()
            completions.wrappingAdd(1, ordering: .relaxed)
          },
          onDisposed: {
            owner.touch()
            disposals.wrappingAdd(1, ordering: .acquiringAndReleasing)
          })
      }
      owner = nil
      // when
      runConcurrently(threads: 2) { index in
        if index == 0 {
          subject.onNext(1)
          subject.onCompleted()
        } else {
          subscription.value?.dispose()
        }
      }
      // then
      XCTAssertEqual(disposals.load(ordering: .acquiring), 1)
      XCTAssertLessThanOrEqual(completions.load(ordering: .acquiring), 1)
      XCTAssertNil(weakOwner, "the ended subscription kept its closures")
      XCTAssertTrue((subscription.value as? Cancelable)?.isDisposed ?? false)
      XCTAssertFalse(subject.hasObservers)
    }
  }

  func test_subscribe_subscriptionsDisposedOnOtherThreads_stopDelivery() {
    // given
    let subject = PublishSubject<Int>()
    let delivered = AtomicBox<Int>(0)
    let afterDisposal = AtomicBox<Int>(0)
    let disposed = AtomicBox<Bool>(false)
    let sentAfterDisposal = AtomicBox<Int>(0)
    let deadline = Date().addingTimeInterval(Double(10 * StressConfiguration.multiplier))
    let subscription = SharedSlot<Disposable>(
      subject.subscribe(onNext: { _ in
        if disposed.load(ordering: .acquiring) {
          afterDisposal.wrappingAdd(1, ordering: .relaxed)
        }
        delivered.wrappingAdd(1, ordering: .relaxed)
        sched_yield()
      }))
    // when: the disposal lands while elements are being delivered, and sending goes on
    runConcurrently(threads: 2) { index in
      if index == 0 {
        var value = 0
        while sentAfterDisposal.load(ordering: .relaxed) < 1_000 && Date() < deadline {
          if disposed.load(ordering: .acquiring) {
            sentAfterDisposal.wrappingAdd(1, ordering: .relaxed)
          }
          subject.onNext(value)
          value += 1
        }
      } else {
        while delivered.load(ordering: .relaxed) < 100 && Date() < deadline { sched_yield() }
        subscription.value.dispose()
        disposed.store(true, ordering: .releasing)
      }
    }
    // then: the race happened (elements before, sends after the disposal), and at most the
    // element already under way when `dispose()` returned arrived after it
    XCTAssertGreaterThanOrEqual(
      delivered.load(ordering: .acquiring), 100, "nothing was delivered before the disposal")
    XCTAssertEqual(
      sentAfterDisposal.load(ordering: .acquiring), 1_000,
      "the sender did not keep sending after the disposal")
    XCTAssertLessThanOrEqual(afterDisposal.load(ordering: .acquiring), 1)
  }
}

/// An object whose release the tests observe through a weak reference.
private final class Captured: @unchecked Sendable {
  func touch() {}
}

/// A mutable value handed to test threads; the tests order the accesses themselves.
private final class SharedSlot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
