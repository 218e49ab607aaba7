import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Random subscribe / emit / dispose interleavings against a plain model of what each
/// observer must receive.
final class SubjectFuzzTests: ResourceTestCase {
  func test_publishSubject_randomInterleavingsMatchModel() {
    for seed in StressConfiguration.seeds(40) {
      runPublishInterleaving(seed: seed)
    }
  }

  func test_behaviorSubject_randomInterleavingsMatchModel() {
    for seed in StressConfiguration.seeds(40) {
      runBehaviorInterleaving(seed: seed)
    }
  }

  func test_replaySubject_randomInterleavingsMatchModel() {
    for seed in StressConfiguration.seeds(40) {
      runReplayInterleaving(seed: seed, bufferSize: Int(seed % 4))
    }
  }

  func test_publishSubject_disposeFromInsideCallbackStopsDeliveryAtOnce() {
    // given
    let subject = PublishSubject<Int>()
    var first: [Int] = []
    var second: [Int] = []
    var secondSubscription: Disposable?
    let firstSubscription = subject.subscribe(onNext: { value in
      first.append(value)
      if value == 2 { secondSubscription?.dispose() }
    })
    secondSubscription = subject.subscribe(onNext: { second.append($0) })
    // when
    for value in 1...4 { subject.onNext(value) }
    // then
    XCTAssertEqual(first, [1, 2, 3, 4])
    XCTAssertEqual(second, [1], "An observer disposed during delivery must not get that event.")
    firstSubscription.dispose()
  }

  func test_subjects_concurrentSubscribeDisposeWhileEmitting_noLossNoLeak() {
    // given
    let subject = PublishSubject<Int>()
    let rounds = StressConfiguration.iterations(200)
    let subscribersDone = AtomicBox<Int>(0)
    let emitted = AtomicBox<Int>(0)
    let runs = LockedValues<ReceivedRun>()
    // when: one thread emits, in order, for as long as others subscribe and dispose
    runConcurrently(threads: 4) { index in
      if index == 0 {
        var value = 0
        while subscribersDone.load(ordering: .acquiring) < 3 {
          subject.onNext(value)
          value += 1
          emitted.store(value, ordering: .releasing)
        }
        return
      }
      for _ in 0..<rounds {
        // Subscribe while the emitter runs, so each subscription overlaps emissions.
        let before = emitted.load(ordering: .acquiring)
        XCTAssertTrue(
          spinUntil { emitted.load(ordering: .acquiring) != before },
          "waited 10 s for: emitted.load(ordering: .acquiring) != before")
        let run = ReceivedRun()
        let subscription = subject.subscribe(onNext: { run.values.append($0) })
        // `emitted == n` once `onNext(n - 1)` returned: `onNext(subscribedAt + 1)` starts after
        // this load, so after `subscribe` returned, and has returned once `emitted` reaches
        // `subscribedAt + 2`.
        let subscribedAt = emitted.load(ordering: .acquiring)
        XCTAssertTrue(
          spinUntil { emitted.load(ordering: .acquiring) >= subscribedAt + 2 },
          "waited 10 s for: emitted.load(ordering: .acquiring) >= subscribedAt + 2")
        subscription.dispose()
        runs.append(run)
      }
      subscribersDone.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }
    // then: each subscription received a gap-free run of the emitted values, and they did
    // overlap the emissions
    let all = runs.all
    XCTAssertEqual(all.count, 3 * rounds)
    let missed = all.filter { $0.values.isEmpty }.count
    XCTAssertEqual(missed, 0, "subscriptions missed an element emitted while they were live")
    for run in all where !run.values.isEmpty {
      let expected = Array(run.values[0]..<(run.values[0] + run.values.count))
      XCTAssertEqual(run.values, expected, "a subscription lost or reordered elements")
    }
    // A permanent subscriber sees everything after it subscribed, in order.
    var permanent: [Int] = []
    let subscription = subject.subscribe(onNext: { permanent.append($0) })
    for value in 0..<100 { subject.onNext(value) }
    XCTAssertEqual(permanent, Array(0..<100))
    subscription.dispose()
    XCTAssertFalse(subject.hasObservers)
  }

  func test_sources_randomReentrantSubscribeDispose_neverDeliverAfterDispose_andReleaseAll() {
    for seed in StressConfiguration.seeds(120) {
      // given
      let start = Resources.total
      // when
      let report = runReentrantInterleaving(seed: seed)
      // then
      XCTAssertEqual(report.lateDeliveries, 0, "seed \(seed) (\(report.source))")
      XCTAssertEqual(report.grammarViolations, 0, "seed \(seed) (\(report.source))")
      XCTAssertGreaterThan(report.deliveries, 0, "seed \(seed) (\(report.source))")
      XCTAssertEqual(
        Resources.total, start, "seed \(seed) (\(report.source)): resources leaked")
    }
  }

  // MARK: - Reentrant interleavings

  private struct InterleavingReport {
    let source: String
    let deliveries: Int
    let lateDeliveries: Int
    let grammarViolations: Int
  }

  /// One subscriber of a reentrant run: what it received and whether it was disposed.
  private final class Participant {
    var subscription: Disposable?
    var isDisposed = false
    var isTerminated = false
  }

  /// The state of one reentrant run, shared by every callback.
  private final class Interleaving {
    var generator: SeededRandomNumberGenerator
    var participants: [Participant] = []
    var deliveries = 0
    var lateDeliveries = 0
    var grammarViolations = 0
    var nestedEmissions = 0
    var subscribe: (Interleaving) -> Void = { _ in }
    var emit: (Int) -> Void = { _ in }

    init(seed: UInt64) {
      generator = SeededRandomNumberGenerator(seed: seed)
    }

    func receive(_ event: Event<Int>, by participant: Participant) {
      deliveries += 1
      if participant.isDisposed { lateDeliveries += 1 }
      if participant.isTerminated { grammarViolations += 1 }
      if event.isStopEvent { participant.isTerminated = true }
      react()
    }

    /// What a callback does besides recording: sometimes subscribe another observer, dispose
    /// a random one (possibly itself), or emit a nested element.
    func react() {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0 where participants.count < 24:
        subscribe(self)
      case 1, 2:
        disposeRandom()
      case 3 where nestedEmissions < 40:
        nestedEmissions += 1
        emit(Int.random(in: 0..<100, using: &generator))
      default:
        break
      }
    }

    func disposeRandom() {
      guard !participants.isEmpty else { return }
      let participant = participants[Int.random(in: 0..<participants.count, using: &generator)]
      participant.subscription?.dispose()
      participant.isDisposed = true
    }
  }

  /// Runs a random single-threaded script of emissions, subscriptions and disposals, where
  /// callbacks themselves subscribe, dispose and emit, against one kind of source.
  private func runReentrantInterleaving(seed: UInt64) -> InterleavingReport {
    let run = Interleaving(seed: seed)
    let subject = PublishSubject<Int>()
    let behavior = BehaviorSubject(value: 0)
    let replay = ReplaySubject<Int>.create(bufferSize: 2)
    // Each source with the observer its elements are sent to.
    let sources: [(String, Observable<Int>, (Event<Int>) -> Void)] = [
      ("PublishSubject", subject, subject.on),
      ("BehaviorSubject", behavior, behavior.on),
      ("ReplaySubject(2)", replay, replay.on),
      ("share()", subject.share(), subject.on),
      ("share(replay: 1)", subject.share(replay: 1), subject.on),
      ("share(replay: 1, .forever)", subject.share(replay: 1, scope: .forever), subject.on),
      ("publish().refCount()", subject.publish().refCount(), subject.on),
      (
        "map.filter.distinct",
        subject.map { $0 % 7 }.filter { $0 != 3 }.distinctUntilChanged(), subject.on
      ),
      ("flatMap(just)", subject.flatMap { Observable.just($0 * 2) }, subject.on),
    ]
    let (name, source, send) = sources[Int(seed % UInt64(sources.count))]
    run.emit = { send(.next($0)) }
    run.subscribe = { run in
      // Registered once `subscribe` returned: only then can a callback dispose it.
      let participant = Participant()
      participant.subscription = source.subscribe { [unowned run] event in
        run.receive(event, by: participant)
      }
      run.participants.append(participant)
    }
    for step in 0..<80 {
      switch Int.random(in: 0..<20, using: &run.generator) {
      case 0..<4: run.subscribe(run)
      case 4..<6: run.disposeRandom()
      case 6 where step > 60: send(.completed)
      default: send(.next(Int.random(in: 0..<100, using: &run.generator)))
      }
    }
    for participant in run.participants {
      participant.subscription?.dispose()
      participant.subscription = nil
    }
    run.subscribe = { _ in }
    run.emit = { _ in }
    return InterleavingReport(
      source: name, deliveries: run.deliveries, lateDeliveries: run.lateDeliveries,
      grammarViolations: run.grammarViolations)
  }

  // MARK: - Models

  private enum Step {
    case subscribe
    case dispose(Int)
    case next(Int)
    case complete
    case fail
  }

  private func randomSteps(seed: UInt64, count: Int) -> [Step] {
    var generator = SeededRandomNumberGenerator(seed: seed)
    var steps: [Step] = []
    var subscribers = 0
    for _ in 0..<count {
      let roll = Int.random(in: 0..<100, using: &generator)
      switch roll {
      case 0..<25:
        steps.append(.subscribe)
        subscribers += 1
      case 25..<40 where subscribers > 0:
        steps.append(.dispose(Int.random(in: 0..<subscribers, using: &generator)))
      case 40..<42:
        steps.append(.complete)
      case 42..<43:
        steps.append(.fail)
      default:
        steps.append(.next(Int.random(in: 0..<1_000, using: &generator)))
      }
    }
    return steps
  }

  /// Runs `steps` against `subject` and against a model where `replay(history, isNew)` gives
  /// what a new subscriber receives first.
  private func check<S: ObserverType & ObservableType>(
    _ subject: S, seed: UInt64, replay: ([Event<Int>]) -> [Event<Int>]
  ) where S.Element == Int {
    let steps = randomSteps(seed: seed, count: 60)
    var actual: [[Event<Int>]] = []
    var expected: [[Event<Int>]] = []
    var active: [Bool] = []
    var subscriptions: [Disposable] = []
    var history: [Event<Int>] = []
    var terminated = false
    for step in steps {
      switch step {
      case .subscribe:
        let index = actual.count
        actual.append([])
        expected.append(replay(history))
        active.append(!terminated)
        subscriptions.append(subject.subscribe { actual[index].append($0) })
      case .dispose(let index):
        subscriptions[index].dispose()
        active[index] = false
      case .next(let value):
        subject.on(.next(value))
        if !terminated {
          history.append(.next(value))
          for index in active.indices where active[index] { expected[index].append(.next(value)) }
        }
      case .complete, .fail:
        let event: Event<Int> = {
          if case .complete = step { return .completed }
          return .error(TestError(7))
        }()
        subject.on(event)
        if !terminated {
          terminated = true
          history.append(event)
          for index in active.indices where active[index] { expected[index].append(event) }
          for index in active.indices { active[index] = false }
        }
      }
    }
    for subscription in subscriptions { subscription.dispose() }
    XCTAssertEqual(actual, expected, "seed \(seed)")
  }

  private func runPublishInterleaving(seed: UInt64) {
    check(PublishSubject<Int>(), seed: seed) { history in
      history.last.map { $0.isStopEvent ? [$0] : [] } ?? []
    }
  }

  private func runBehaviorInterleaving(seed: UInt64) {
    check(BehaviorSubject<Int>(value: -1), seed: seed) { history in
      if let last = history.last, last.isStopEvent { return [last] }
      let lastValue = history.last?.element ?? -1
      return [.next(lastValue)]
    }
  }

  private func runReplayInterleaving(seed: UInt64, bufferSize: Int) {
    check(ReplaySubject<Int>.create(bufferSize: bufferSize), seed: seed) { history in
      let elements = history.filter { !$0.isStopEvent }
      let replayed = Array(elements.suffix(bufferSize))
      if let last = history.last, last.isStopEvent { return replayed + [last] }
      return replayed
    }
  }
}

/// What one subscription received; appended to only by the subject's serial delivery, read
/// once every thread has finished.
private final class ReceivedRun: @unchecked Sendable {
  // Safety: see above.
  var values: [Int] = []
}
