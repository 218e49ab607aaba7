import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// A subscription whose disposable was dropped (`_ = source.subscribe(onNext:)`) must be
/// released, with everything its closures capture, once its source is freed or disposed
/// without a terminal event: nothing can reach it any more. Each test captures a weak probe
/// in the closure and checks both the probe and ``Resources/total`` (the base class checks the
/// total again after the test).
final class SourceReleaseTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  // MARK: - Subjects freed

  func test_publishSubject_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      PublishSubject<Int>()
    } feed: {
      $0.onNext(1)
    }
  }

  func test_behaviorSubject_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      BehaviorSubject(value: 0)
    } feed: {
      $0.onNext(1)
    }
  }

  func test_replaySubject_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      ReplaySubject<Int>.create(bufferSize: 2)
    } feed: {
      $0.onNext(1)
    }
  }

  func test_unboundReplaySubject_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      ReplaySubject<Int>.createUnbound()
    } feed: {
      $0.onNext(1)
    }
  }

  func test_asyncSubject_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed(expectsElements: false) {
      AsyncSubject<Int>()
    } feed: {
      $0.onNext(1)
    }
  }

  func test_publishRelay_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      PublishRelay<Int>()
    } feed: {
      $0.accept(1)
    }
  }

  func test_behaviorRelay_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      BehaviorRelay(value: 0)
    } feed: {
      $0.accept(1)
    }
  }

  func test_replayRelay_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      ReplayRelay<Int>.create(bufferSize: 2)
    } feed: {
      $0.accept(1)
    }
  }

  func test_unboundReplayRelay_freedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenFreed {
      ReplayRelay<Int>.createUnbound()
    } feed: {
      $0.accept(1)
    }
  }

  func test_replayRelay_freedWhileItsObservableLives_releasesADroppedSubscription() {
    // given: the relay's observable (its subject) outlives the relay
    let baseline = Resources.total
    var relay: ReplayRelay<Int>? = .create(bufferSize: 1)
    let observable = relay!.asObservable()
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    let received = LockedValues<Int>()
    _ = observable.subscribe(onNext: { [probe] in received.append($0 + probe!.offset) })
    probe = nil
    relay!.accept(1)
    // when
    relay = nil
    // then
    XCTAssertEqual(received.all, [1])
    XCTAssertNil(weakProbe, "the dropped subscription outlived the relay")
    XCTAssertEqual(Resources.total, baseline + 1, "only the subject itself should be left")
    withExtendedLifetime(observable) {}
  }

  // MARK: - Subjects disposed

  func test_publishSubject_disposedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenDisposed(PublishSubject<Int>())
  }

  func test_behaviorSubject_disposedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenDisposed(BehaviorSubject(value: 0))
  }

  func test_replaySubject_disposedWithADroppedSubscription_releasesIt() {
    assertReleasedWhenDisposed(ReplaySubject<Int>.create(bufferSize: 1))
  }

  func test_disposedSubject_operatorChainWithADroppedSubscription_releasesIt() {
    // given
    let baseline = Resources.total
    let subject = PublishSubject<Int>()
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    var received: [Int] = []
    _ = subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(onNext: { [probe] in
      received.append($0 + probe!.offset)
    })
    probe = nil
    subject.onNext(1)
    // when
    subject.dispose()
    // then
    XCTAssertEqual(received, [2])
    XCTAssertNil(weakProbe, "the operator chain over a disposed subject kept its closure alive")
    XCTAssertEqual(Resources.total, baseline + 1, "only the subject itself should be left")
  }

  // MARK: - Operator chains

  func test_operatorChainOverAFreedSubject_releasesIt() {
    assertReleasedWhenFreed {
      PublishSubject<Int>()
    } feed: {
      $0.onNext(1)
    } subscribe: {
      $0.asObservable().map { $0 * 2 }.filter { $0 > 0 }
    }
  }

  func test_longOperatorChainOverAFreedBehaviorRelay_releasesIt() {
    assertReleasedWhenFreed {
      BehaviorRelay(value: 1)
    } feed: {
      $0.accept(2)
    } subscribe: {
      $0.asObservable().map { $0 + 1 }.filter { _ in true }.distinctUntilChanged()
        .scan(0) { $0 + $1 }.skip(0).startWith(0)
    }
  }

  func test_keptDisposable_subjectFreed_releasesTheClosureAndStillDisposes() {
    // given
    let baseline = Resources.total
    var subject: PublishSubject<Int>? = PublishSubject()
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    var disposedCalls = 0
    let subscription = subject!.map { $0 + 1 }.subscribe(
      onNext: { [probe] _ in _ = probe }, onDisposed: { disposedCalls += 1 })
    probe = nil
    // when
    subject = nil
    // then
    XCTAssertNil(weakProbe, "a kept disposable kept `onNext` alive after its source was freed")
    subscription.dispose()
    subscription.dispose()
    XCTAssertEqual(disposedCalls, 1)
    XCTAssertEqual(Resources.total, baseline)
  }

  func test_subjectDisposalRacingDeliveryAndSubscriptionDisposal_releasesEverythingOnce() {
    for _ in 0..<StressConfiguration.iterations(200) {
      // given
      let subject = PublishSubject<Int>()
      var probe: Probe? = Probe()
      weak let weakProbe = probe
      let disposals = LockedValues<Int>()
      let subscription = UncheckedBox(
        subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(
          onNext: { [probe] _ in _ = probe }, onDisposed: { disposals.append(1) }))
      probe = nil
      // when: the subject's disposal, an element and the subscription's disposal race
      runConcurrently(threads: 3) { index in
        switch index {
        case 0: subject.dispose()
        case 1:
          subject.onNext(1)
          sched_yield()
          subject.onNext(2)
        default:
          sched_yield()
          subscription.value.dispose()
        }
      }
      // then
      XCTAssertNil(weakProbe)
      XCTAssertEqual(disposals.all, [1])
      // The test threads release their closures (and the subject) after they finish, so the
      // total is checked once, after the loop, by the base class.
    }
  }

  // MARK: - Traits

  func test_driverOverAFreedBehaviorRelay_releasesIt() {
    assertReleasedWhenFreed {
      BehaviorRelay(value: 0)
    } feed: {
      $0.accept(1)
    } subscribe: {
      $0.asDriver().map { $0 + 1 }.asObservable()
    }
  }

  func test_driverWithOnErrorJustReturnOverAFreedPublishRelay_releasesIt() {
    assertReleasedWhenFreed {
      PublishRelay<Int>()
    } feed: {
      $0.accept(1)
    } subscribe: {
      $0.asDriver(onErrorJustReturn: 0).map { $0 + 1 }.asObservable()
    }
  }

  func test_catchOverAFreedPublishSubject_releasesIt() {
    assertReleasedWhenFreed {
      PublishSubject<Int>()
    } feed: {
      $0.onNext(1)
    } subscribe: {
      $0.asObservable().catchAndReturn(0)
    }
  }

  func test_catchAfterObserveOnOverAFreedPublishSubject_releasesIt() {
    assertReleasedWhenFreed {
      PublishSubject<Int>()
    } feed: {
      $0.onNext(1)
    } subscribe: {
      $0.asObservable().observe(on: MainScheduler.instance).catchAndReturn(0)
    }
  }

  func test_sharedCatchOverAFreedBehaviorRelay_releasesIt() {
    // A relay: a freed subject inside a shared chain is held by the chain itself.
    assertReleasedWhenFreed {
      BehaviorRelay(value: 0)
    } feed: {
      $0.accept(1)
    } subscribe: {
      $0.asObservable().catchAndReturn(0).share(replay: 1, scope: .whileConnected)
    }
  }

  func test_sharedSequenceOverADisposedSubject_releasesIt() {
    // given: `share` holds its source, so the subject outlives the dropped subscription
    let baseline = Resources.total
    let subject = PublishSubject<Int>()
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    let received = LockedValues<Int>()
    _ = subject.observe(on: MainScheduler.instance).share(replay: 1).map { $0 + 1 }
      .subscribe(onNext: { [probe] in received.append($0 + probe!.offset) })
    probe = nil
    subject.onNext(1)
    // when
    subject.dispose()
    // then
    runMainLoopUntil(timeout: 2) { weakProbe == nil && Resources.total == baseline + 1 }
    XCTAssertEqual(received.all, [2])
    XCTAssertNil(weakProbe, "the shared subscription outlived the subject's disposal")
    XCTAssertEqual(Resources.total, baseline + 1, "only the subject itself should be left")
  }

  func test_signalOverAFreedPublishRelay_releasesIt() {
    assertReleasedWhenFreed {
      PublishRelay<Int>()
    } feed: {
      $0.accept(1)
    } subscribe: {
      $0.asSignal().asObservable()
    }
  }

  // MARK: - Helpers

  /// Subscribes with a dropped disposable, feeds the source, frees it, and checks that the
  /// subscription (its closure's probe) and every counted resource were released.
  private func assertReleasedWhenFreed<Source: ObservableType>(
    expectsElements: Bool = true, _ make: () -> Source, feed: (Source) -> Void,
    subscribe: (Source) -> Observable<Int> = { $0.asObservable() },
    file: StaticString = #filePath, line: UInt = #line
  ) where Source.Element == Int {
    // given
    let baseline = Resources.total
    var source: Source? = make()
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    let received = LockedValues<Int>()
    _ = subscribe(source!).subscribe(onNext: { [probe] in received.append($0 + probe!.offset) })
    probe = nil
    feed(source!)
    XCTAssertEqual(
      received.all.isEmpty, !expectsElements, "the subscription received \(received.all)",
      file: file, line: line)
    // when
    source = nil
    // then
    runMainLoopUntil(timeout: 2, file: file, line: line) {
      weakProbe == nil && Resources.total == baseline
    }
    XCTAssertNil(
      weakProbe, "the dropped subscription outlived its source", file: file, line: line)
    XCTAssertEqual(
      Resources.total, baseline, "resources of the subscription leaked", file: file, line: line)
  }

  /// Subscribes with a dropped disposable, disposes the subject, and checks that the
  /// subscription was released.
  private func assertReleasedWhenDisposed<Subject: SubjectType & Cancelable>(
    _ subject: Subject, file: StaticString = #filePath, line: UInt = #line
  ) where Subject.Element == Int {
    // given
    let baseline = Resources.total
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    _ = subject.subscribe(onNext: { [probe] _ in _ = probe })
    probe = nil
    // when
    subject.dispose()
    // then
    XCTAssertNil(
      weakProbe, "the dropped subscription outlived the subject's disposal", file: file,
      line: line)
    XCTAssertEqual(Resources.total, baseline, file: file, line: line)
  }
}

/// What a subscription's closure captures; freed only when the closure is.
private final class Probe: @unchecked Sendable {
  // Safety: immutable.
  let offset = 0
}
