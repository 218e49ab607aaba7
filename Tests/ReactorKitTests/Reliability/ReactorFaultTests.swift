import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Failures inside a reactor's pipeline and its subscribers, and what each one is promised to
/// do (see the "Failures and faults" article).
final class ReactorFaultTests: ResourceTestCase {
  // MARK: - mutate

  func test_mutate_failingAfterSomeMutations_keepsThemAndTheReactorWorks() {
    // given: `fail(n)` emits n mutations, then fails
    let reactor = FaultReactor()
    var events: [Event<Int>] = []
    let subscription = reactor.state.subscribe { events.append($0) }
    // when
    reactor.action.onNext(.fail(2))
    reactor.action.onNext(.add(10))
    reactor.action.onNext(.fail(0))
    reactor.action.onNext(.add(100))
    // then
    XCTAssertEqual(events, [.next(0), .next(1), .next(2), .next(12), .next(112)])
    XCTAssertEqual(reactor.currentState, 112)
    subscription.dispose()
  }

  func test_mutate_throwingInsideItsSequence_isIgnoredLikeAnError() {
    // given: the sequence `mutate` returns throws from a `map`
    let reactor = FaultReactor()
    // when
    reactor.action.onNext(.throwInMap)
    reactor.action.onNext(.add(3))
    // then
    XCTAssertEqual(reactor.currentState, 3)
  }

  func test_mutate_failingLaterOnAnotherThread_whileActionsArriveFromSeveral_losesNothing() {
    // given: every third action's mutations arrive on a background queue and then fail
    let reactor = FaultReactor()
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 100 : 500)
    _ = reactor.state
    let afterCreation = Resources.total
    // when
    runConcurrently(threads: 4) { _ in
      for index in 0..<perThread {
        reactor.action.onNext(index % 3 == 0 ? .failLater : .add(1))
      }
    }
    // then: each `failLater` adds 1 before failing
    XCTAssertTrue(waitUntil { reactor.currentState == 4 * perThread })
    XCTAssertEqual(reactor.currentState, 4 * perThread)
    XCTAssertTrue(
      waitUntil { Resources.total == afterCreation },
      "failed mutation sequences were not released: \(Resources.total - afterCreation)")
  }

  // MARK: - transform(mutation:) and transform(state:)

  func test_transformMutation_errorCompletesTheStateStream_withoutAnError() {
    // given: the transformed mutation stream fails on a mutation of 13
    let reactor = FaultReactor()
    reactor.failingTransform = .mutation
    var events: [Event<Int>] = []
    let subscription = reactor.state.subscribe { events.append($0) }
    // when
    reactor.action.onNext(.add(1))
    reactor.action.onNext(.add(13))
    reactor.action.onNext(.add(1))
    // then: the state stream ends quietly, keeping the last state
    XCTAssertEqual(events, [.next(0), .next(1), .completed])
    XCTAssertEqual(reactor.currentState, 1)
    subscription.dispose()
  }

  func test_transformState_errorReachesTheStateSubscribers() {
    // given: the transformed state stream fails on a state of 13 (as in ReactorKit, errors
    // after `transform(state:)` are not caught)
    let reactor = FaultReactor()
    reactor.failingTransform = .state
    var events: [Event<Int>] = []
    let subscription = reactor.state.subscribe { events.append($0) }
    // when
    reactor.action.onNext(.add(1))
    reactor.action.onNext(.add(12))
    reactor.action.onNext(.add(1))
    // then
    XCTAssertEqual(events, [.next(0), .next(1), .error(TestError(13))])
    XCTAssertEqual(reactor.currentState, 1)
    subscription.dispose()
  }

  // MARK: - Subscribers

  func test_stateSubscriber_errorThrownDownstream_endsOnlyThatSubscription() {
    // given: one subscriber's `map` throws on the state 2; another subscriber keeps going
    let reactor = FaultReactor()
    var failing: [Event<Int>] = []
    var healthy: [Int] = []
    let failingSubscription = reactor.state
      .map { state -> Int in
        if state == 2 { throw TestError(2) }
        return state
      }
      .subscribe { failing.append($0) }
    let healthySubscription = reactor.state.subscribe(onNext: { healthy.append($0) })
    // when
    for _ in 0..<3 { reactor.action.onNext(.add(1)) }
    // then
    XCTAssertEqual(failing, [.next(0), .next(1), .error(TestError(2))])
    XCTAssertEqual(healthy, [0, 1, 2, 3])
    XCTAssertEqual(reactor.currentState, 3)
    failingSubscription.dispose()
    healthySubscription.dispose()
  }

  func test_stateSubscriber_disposingMidStreamFromAnotherThread_stopsItsDeliveries() {
    // given
    let reactor = FaultReactor()
    let disposed = AtomicBox<Bool>(false)
    let late = AtomicBox<Int>(0)
    let seen = AtomicBox<Int>(0)
    let subscription = reactor.state.subscribe(onNext: { _ in
      if disposed.load(ordering: .acquiring) { late.wrappingAdd(1, ordering: .relaxed) }
      seen.wrappingAdd(1, ordering: .relaxed)
    })
    let box = UncheckedSubscription(subscription)
    let perThread = StressConfiguration.iterations(2_000)
    // when
    runConcurrently(threads: 3) { thread in
      if thread == 2 {
        XCTAssertTrue(
          spinUntil { seen.load(ordering: .relaxed) >= 100 },
          "waited 10 s for: seen.load(ordering: .relaxed) >= 100")
        box.subscription.dispose()
        disposed.store(true, ordering: .releasing)
      } else {
        for _ in 0..<perThread { reactor.action.onNext(.add(1)) }
      }
    }
    // then: states are delivered serially, so at most the one under way finishes afterwards
    XCTAssertLessThanOrEqual(late.load(ordering: .acquiring), 1)
    XCTAssertEqual(reactor.currentState, 2 * perThread)
  }

  // MARK: - Lifetime

  func test_reactorFreedWhileItsMutationIsRunning_laterMutationsAreDroppedQuietly() {
    // given: `hold` keeps a mutation sequence open, fed by a subject the test keeps
    var reactor: FaultReactor? = FaultReactor()
    weak let weakReactor = reactor
    let feed = PublishSubject<Int>()
    reactor!.held = feed
    reactor!.action.onNext(.hold)
    feed.onNext(5)
    XCTAssertEqual(reactor!.currentState, 5)
    // when
    reactor = nil
    feed.onNext(6)
    feed.onError(TestError(1))
    // then
    XCTAssertNil(weakReactor)
    XCTAssertFalse(feed.hasObservers)
  }

  func test_keptActionSubject_racingWithTheReactorBeingFreed_dropsActionsQuietly() {
    // given: senders keep the reactor's `action` (as a bound source does); the reactor's only
    // owner is a box another thread empties
    let freed = AtomicBox<Bool>(false)
    let owner = StoreLockedBox<DyingReactor?>(
      DyingReactor { freed.store(true, ordering: .releasing) })
    weak let weakReactor = owner.current
    let action = UncheckedActionSubject(owner.current!.action)
    let states = AtomicBox<Int>(0)
    let subscription = owner.current!.state.subscribe(onNext: { _ in
      states.wrappingAdd(1, ordering: .relaxed)
    })
    let released = AtomicBox<Bool>(false)
    let afterRelease = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 200 : 1_000)
    // when: four threads send before, while and after a fifth lets go of the reactor (a
    // sender draining queued actions holds it until the queue is empty, so it is freed on
    // whichever thread lets go of it last)
    runConcurrently(threads: 5) { thread in
      if thread == 0 {
        XCTAssertTrue(
          spinUntil { states.load(ordering: .relaxed) >= 100 },
          "waited 10 s for: states.load(ordering: .relaxed) >= 100")
        owner.withLock { $0 = nil }
        released.store(true, ordering: .releasing)
        return
      }
      var sent = 0
      while !released.load(ordering: .acquiring) {
        action.subject.onNext(1)
        sent += 1
        if sent % 8 == 0 { sched_yield() }
      }
      for _ in 0..<afterRelease { action.subject.onNext(1) }
    }
    // then: the reactor is gone although its `action` is alive, and actions do nothing
    XCTAssertTrue(
      waitUntil { freed.load(ordering: .acquiring) }, "keeping `action` kept the reactor alive")
    XCTAssertNil(weakReactor)
    let delivered = states.load(ordering: .acquiring)
    XCTAssertGreaterThanOrEqual(delivered, 100)
    action.subject.onNext(1)
    XCTAssertEqual(states.load(ordering: .acquiring), delivered)
    subscription.dispose()
  }
}

// MARK: - Fakes

/// A counter that reports its deinitialisation.
private final class DyingReactor: Reactor, @unchecked Sendable {
  // Safety: `onDeinit` is immutable; the reactor's streams synchronise themselves.
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  private let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Hands a reactor's action subject to other test threads; `onNext` is thread-safe.
private struct UncheckedActionSubject: @unchecked Sendable {
  // Safety: `ActionSubject` is thread-safe; the reference itself is immutable.
  let subject: ActionSubject<Int>
  init(_ subject: ActionSubject<Int>) { self.subject = subject }
}

private final class FaultReactor: Reactor, @unchecked Sendable {
  // Safety: `failingTransform` and `held` are set before the streams are used from other
  // threads; the reactor's streams synchronise themselves.
  enum Action {
    case add(Int)
    case fail(Int)
    case throwInMap
    case failLater
    case hold
  }

  enum FailingTransform {
    case none
    case mutation
    case state
  }

  typealias Mutation = Int
  typealias State = Int

  static let background = ConcurrentDispatchQueueScheduler(qos: .default)

  let initialState = 0
  var failingTransform = FailingTransform.none
  var held: PublishSubject<Int>?

  func mutate(action: Action) -> Observable<Int> {
    switch action {
    case .add(let amount):
      return .just(amount)
    case .fail(let count):
      return Observable.from(Array(repeating: 1, count: count))
        .concat(Observable<Int>.error(TestError(count)))
    case .throwInMap:
      return Observable.just(1).map { _ in throw TestError(9) }
    case .failLater:
      return Observable.just(1).concat(Observable<Int>.error(TestError(3)))
        .observe(on: FaultReactor.background)
    case .hold:
      return held?.asObservable() ?? .empty()
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }

  func transform(mutation: Observable<Int>) -> Observable<Int> {
    guard failingTransform == .mutation else { return mutation }
    return mutation.map { mutation in
      if mutation == 13 { throw TestError(13) }
      return mutation
    }
  }

  func transform(state: Observable<Int>) -> Observable<Int> {
    guard failingTransform == .state else { return state }
    return state.map { state in
      if state == 13 { throw TestError(13) }
      return state
    }
  }
}

/// Hands a subscription to another test thread, which disposes it.
private final class UncheckedSubscription: @unchecked Sendable {
  // Safety: `Disposable.dispose()` is thread-safe; the reference itself is immutable.
  let subscription: Disposable
  init(_ subscription: Disposable) { self.subscription = subscription }
}
