import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// The state stream a reactor publishes itself (its `transform(state:)` is the identity): each
/// subscriber receives the current state first, then every later state, serially, whichever
/// thread subscribes and whatever the reactor is doing at that moment.
///
/// Engine: ReactorCore+Output.swift (the state stream's observers).
final class ReactorStateStreamTests: ResourceTestCase {
  // MARK: - Where a subscriber comes from

  func test_subscribeFromMutate_receivesCurrentStateAtOnce() {
    // given
    let reactor = StreamCounterReactor()
    var received: [Int] = []
    var subscription: Disposable?
    reactor.onMutate = { reactor in
      guard subscription == nil else { return }
      subscription = reactor.state.subscribe(onNext: { received.append($0) })
      // Delivered before `mutate` returns: the owner thread delivers between two steps.
      XCTAssertEqual(received, [0])
    }
    // when
    reactor.action.onNext(.increase)
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(received, [0, 1, 2])
    subscription?.dispose()
  }

  func test_subscribeFromStateSubscriber_receivesCurrentStateAfterTheCurrentDelivery() {
    // given
    let reactor = StreamCounterReactor()
    var log: [String] = []
    var inner: Disposable?
    let outer = reactor.state.subscribe(onNext: { state in
      log.append("outer \(state) begin")
      if state == 1 && inner == nil {
        inner = reactor.state.subscribe(onNext: { log.append("inner \($0)") })
      }
      log.append("outer \(state) end")
    })
    // when
    reactor.action.onNext(.increase)
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(
      log,
      [
        "outer 0 begin", "outer 0 end", "outer 1 begin", "outer 1 end", "inner 1",
        "outer 2 begin", "outer 2 end", "inner 2",
      ])
    outer.dispose()
    inner?.dispose()
  }

  func test_actionFromFirstDelivery_runsAfterSubscribeDeliveredTheCurrentState() {
    // given
    let reactor = StreamCounterReactor()
    var received: [Int] = []
    var sent = false
    // when
    let subscription = reactor.state.subscribe(onNext: { state in
      received.append(state)
      if !sent {
        sent = true
        reactor.action.onNext(.increase)
        // Queued: not run inside this delivery.
        XCTAssertEqual(received, [0])
      }
    })
    // then
    XCTAssertEqual(received, [0, 1])
    XCTAssertEqual(reactor.currentState, 1)
    subscription.dispose()
  }

  func test_subscriberDisposedByAnEarlierSubscriber_receivesNothingMore() {
    // given
    let reactor = StreamCounterReactor()
    var second: Disposable?
    var secondReceived: [Int] = []
    let first = reactor.state.subscribe(onNext: { state in
      if state == 1 { second?.dispose() }
    })
    second = reactor.state.subscribe(onNext: { secondReceived.append($0) })
    // when
    reactor.action.onNext(.increase)
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(secondReceived, [0])
    first.dispose()
  }

  func test_subscribersAreCalledInSubscriptionOrder_afterTheFirstOneLeaves() {
    // given
    let reactor = StreamCounterReactor()
    var log: [String] = []
    let a = reactor.state.skip(1).subscribe(onNext: { _ in log.append("a") })
    let b = reactor.state.skip(1).subscribe(onNext: { _ in log.append("b") })
    let c = reactor.state.skip(1).subscribe(onNext: { _ in log.append("c") })
    // when
    reactor.action.onNext(.increase)
    a.dispose()
    let d = reactor.state.skip(1).subscribe(onNext: { _ in log.append("d") })
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(log, ["a", "b", "c", "b", "c", "d"])
    b.dispose()
    c.dispose()
    d.dispose()
  }

  // MARK: - End and disposal

  func test_stateStreamEnd_lateSubscriberReceivesOnlyTheEnd_andCurrentStateStays() {
    // given
    let reactor = StreamCounterReactor(actionLimit: 1)
    var early: [Event<Int>] = []
    let earlySubscription = reactor.state.subscribe { early.append($0) }
    // when
    reactor.action.onNext(.increase)
    var late: [Event<Int>] = []
    let lateSubscription = reactor.state.subscribe { late.append($0) }
    // then
    XCTAssertEqual(early, [.next(0), .next(1), .completed])
    XCTAssertEqual(late, [.completed])
    XCTAssertEqual(reactor.currentState, 1)
    earlySubscription.dispose()
    lateSubscription.dispose()
  }

  func test_endFromAnotherThread_isDeliveredAfterEveryState() {
    // given: the last action's mutations arrive on another thread, then the stream ends there.
    let reactor = StreamCounterReactor(actionLimit: 1)
    reactor.mutationScheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "mutations")
    let detector = OverlapDetector()
    let events = Locked<[Event<Int>]>([])
    let ended = expectation(description: "ended")
    let subscription = reactor.state.subscribe { event in
      detector.visit { events.withLock { $0.append(event) } }
      if event == .completed { ended.fulfill() }
    }
    // when
    reactor.action.onNext(.increase)
    // then
    wait(for: [ended], timeout: 5)
    XCTAssertEqual(events.current, [.next(0), .next(1), .completed])
    XCTAssertEqual(detector.maximumOverlap, 1)
    subscription.dispose()
  }

  func test_reactorGone_releasesSubscribers_andKeptStreamGivesTheLastState() {
    // given
    var reactor: StreamCounterReactor? = StreamCounterReactor()
    var received: [Event<Int>] = []
    let subscription = reactor!.state.subscribe { received.append($0) }
    reactor!.action.onNext(.increase)
    let state = reactor!.state
    weak let weakReactor = reactor
    // when
    reactor = nil
    var late: [Event<Int>] = []
    let lateSubscription = state.subscribe { late.append($0) }
    // then
    XCTAssertNil(weakReactor)
    XCTAssertEqual(received, [.next(0), .next(1)])
    XCTAssertEqual(late, [.next(1)])
    subscription.dispose()
    lateSubscription.dispose()
  }

  func test_subscriptionKeptAfterReactorIsGone_canBeDisposedLater() {
    // given
    var reactor: StreamCounterReactor? = StreamCounterReactor()
    var received: [Int] = []
    let subscription = reactor!.state.subscribe(onNext: { received.append($0) })
    // when
    reactor = nil
    subscription.dispose()
    subscription.dispose()
    // then: nothing leaked (checked by ResourceTestCase), nothing delivered twice
    XCTAssertEqual(received, [0])
  }

  // MARK: - Threads

  func test_subscribersOnOtherThreads_eachReceiveConsecutiveStatesWithoutOverlap() {
    // given
    let reactor = StreamCounterReactor()
    let actions = StressConfiguration.iterations(2_000)
    let subscriberCount = StressConfiguration.iterations(200)
    let detectors = (0..<subscriberCount).map { _ in OverlapDetector() }
    let received = (0..<subscriberCount).map { _ in Locked<[Int]>([]) }
    let subscriptions = Locked<[Disposable]>([])
    // when: one thread sends actions while two others subscribe, so subscribers find the
    // reactor idle, busy on another thread, or claimed by the other subscribing thread.
    // Started together behind a spin barrier; yields widen the windows.
    runConcurrently(threads: 3) { worker in
      guard worker > 0 else {
        for index in 0..<actions {
          reactor.action.onNext(.increase)
          if index % 8 == 0 { sched_yield() }
        }
        return
      }
      for index in stride(from: worker - 1, to: subscriberCount, by: 2) {
        let detector = detectors[index]
        let seen = received[index]
        let subscription = reactor.state.subscribe(onNext: { state in
          detector.visit {
            // A slow first delivery widens the window in which a state published meanwhile
            // could overtake it or overlap with it.
            if seen.withLock({ $0.isEmpty }) { usleep(100) }
            seen.withLock { $0.append(state) }
          }
        })
        subscriptions.withLock { $0.append(subscription) }
        sched_yield()
      }
    }
    // then: every subscriber saw an unbroken run of states ending with the last one.
    XCTAssertEqual(reactor.currentState, actions)
    for (index, seen) in received.map(\.current).enumerated() {
      guard let first = seen.first else {
        XCTFail("subscriber \(index) received nothing")
        continue
      }
      XCTAssertEqual(seen, Array(first...actions), "subscriber \(index)")
      XCTAssertEqual(detectors[index].maximumOverlap, 1, "subscriber \(index)")
    }
    for subscription in subscriptions.current { subscription.dispose() }
  }

  func test_subscribeWhileAnotherThreadWires_receivesLaterStatesOnlyAfterTheFirst() {
    // given: a reactor whose wiring pauses on another thread after the core took over the
    // state stream but before it opened its gate (while it subscribes the transformed
    // actions).
    let reactor = WiringPausedReactor()
    let inWindow = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let actionSent = DispatchSemaphore(value: 0)
    let wirerDone = DispatchSemaphore(value: 0)
    reactor.onSubscribeActions = {
      inWindow.signal()
      _ = proceed.wait(timeout: .now() + 5)
    }
    let detector = OverlapDetector()
    let received = Locked<[Int]>([])
    let wirer = Thread {
      _ = reactor.action
      reactor.action.onNext(.increase)
      actionSent.signal()
      wirerDone.signal()
    }
    wirer.start()
    XCTAssertEqual(inWindow.wait(timeout: .now() + 5), .success)
    // when: a subscriber arrives meanwhile, and the wiring ends and an action is sent while
    // the subscriber is still being sent the current state.
    let subscription = reactor.state.subscribe(onNext: { state in
      detector.visit {
        received.withLock { $0.append(state) }
        guard state == 0 else { return }
        proceed.signal()
        // Bounded: with serial delivery the action is only queued meanwhile.
        _ = actionSent.wait(timeout: .now() + 1)
      }
    })
    XCTAssertEqual(wirerDone.wait(timeout: .now() + 5), .success)
    // then: the later state came after the first, not during it.
    XCTAssertEqual(received.current, [0, 1])
    XCTAssertEqual(detector.maximumOverlap, 1)
    XCTAssertEqual(reactor.currentState, 1)
    subscription.dispose()
  }
}

/// A counter whose wiring runs a hook when it subscribes the transformed action stream.
private final class WiringPausedReactor: Reactor, @unchecked Sendable {
  enum Action { case increase }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  var onSubscribeActions: (@Sendable () -> Void)?

  func transform(action: Observable<Action>) -> Observable<Action> {
    Observable.deferred { [self] in
      onSubscribeActions?()
      return action
    }
  }

  func mutate(action: Action) -> Observable<Mutation> { .just(1) }

  func reduce(state: State, mutation: Mutation) -> State { state + mutation }
}

/// A counter whose `mutate` can run a hook, deliver its mutation on a queue, and whose action
/// stream can end after a number of actions.
private final class StreamCounterReactor: Reactor, @unchecked Sendable {
  enum Action { case increase }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  let actionLimit: Int?
  var onMutate: ((StreamCounterReactor) -> Void)?
  var mutationScheduler: SerialDispatchQueueScheduler?

  init(actionLimit: Int? = nil) {
    self.actionLimit = actionLimit
  }

  func transform(action: Observable<Action>) -> Observable<Action> {
    guard let actionLimit else { return action }
    return action.take(actionLimit)
  }

  func mutate(action: Action) -> Observable<Mutation> {
    onMutate?(self)
    guard let mutationScheduler else { return .just(1) }
    return Observable.just(1).subscribe(on: mutationScheduler)
  }

  func reduce(state: State, mutation: Mutation) -> State {
    state + mutation
  }
}
