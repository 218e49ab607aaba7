import Foundation
import Observation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class ObservedReactorTests: ResourceTestCase {
  // MARK: - Reading and sending

  @MainActor
  func test_observedReactor_readsStateThroughDynamicMembers() async {
    // given
    let reactor = ProfileReactor(initialState: .init(count: 3, title: "Hello"))
    // when
    let model = ObservedReactor(reactor)
    // then
    XCTAssertEqual(model.count, 3)
    XCTAssertEqual(model.title, "Hello")
    XCTAssertEqual(model.state.count, 3)
    XCTAssertTrue(model.reactor === reactor)
  }

  @MainActor
  func test_send_updatesTheModelBeforeReturningOnTheMainThread() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    // when
    model.send(.increase)
    model.send(.setTitle("Title"))
    // then
    XCTAssertEqual(model.count, 1)
    XCTAssertEqual(model.title, "Title")
    XCTAssertEqual(model.reactor.currentState.count, 1)
  }

  @MainActor
  func test_observedReactor_showsStatesTheReactorReceivedFromOtherSenders() async {
    // given
    let reactor = ProfileReactor()
    let model = ObservedReactor(reactor)
    // when
    reactor.action.onNext(.setCount(7))
    // then
    XCTAssertEqual(model.count, 7)
  }

  @MainActor
  func test_observedReactor_startsWithTheCurrentStateOfAReactorInUse() async {
    // given
    let reactor = ProfileReactor()
    reactor.action.onNext(.setCount(5))
    // when
    let model = ObservedReactor(reactor)
    // then
    XCTAssertEqual(model.count, 5)
  }

  @MainActor
  func test_observedReactor_remembersEachPropertyReadOnce() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    // when
    _ = model.count
    _ = model.count
    _ = model.title
    // then
    XCTAssertEqual(model.observed.memberCount, 2)
  }

  // MARK: - Property-level tracking

  @MainActor
  func test_observationTracking_reportsAChangeOfAPropertyThatWasRead() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    let changes = trackChanges { _ = model.count }
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_ignoresChangesOfPropertiesThatWereNotRead() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    _ = model.title
    let changes = trackChanges { _ = model.count }
    // when
    model.send(.setTitle("Other"))
    model.send(.setNote("Other"))
    model.send(.alert("Other"))
    // then
    XCTAssertEqual(changes.count, 0)
    XCTAssertEqual(model.title, "Other")
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_ignoresAStateWithAnEqualValue() async {
    // given
    let model = ObservedReactor(ProfileReactor(initialState: .init(count: 4)))
    let changes = trackChanges { _ = model.count }
    // when
    model.send(.setCount(4))
    model.send(.nothing)
    // then
    XCTAssertEqual(changes.count, 0)
  }

  @MainActor
  func test_observationTracking_comparesEquatableValuesReadFromGenericCode() async {
    // given: generic code reaches the unconstrained subscript; `Int` is found Equatable at run time
    let model = ObservedReactor(ProfileReactor(initialState: .init(count: 4)))
    let changes = trackChanges { _ = readAnyValue(model, \.count) }
    // when
    model.send(.setCount(4))
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    model.send(.setCount(5))
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_reportsANonEquatablePropertyOnEveryNewState() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    let changes = trackChanges { _ = model.note }
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_reportsAPulseOnEachAssignmentOnly() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    model.send(.alert("Saved"))
    let unrelated = trackChanges { _ = model.$alert }
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(unrelated.count, 0)
    // given
    let repeated = trackChanges { _ = model.$alert }
    // when
    model.send(.alert("Saved"))
    // then
    XCTAssertEqual(repeated.count, 1)
    XCTAssertEqual(model.alert, "Saved")
    XCTAssertEqual(model.$alert.valueUpdatedCount, 2)
  }

  @MainActor
  func test_observationTracking_reportsAnyNewStateToAReaderOfTheWholeState() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    let changes = trackChanges { _ = model.state }
    // when
    model.send(.nothing)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_reportsOnlyChangesOfAnEquatableWholeState() async {
    // given
    let model = ObservedReactor(TextReactor())
    model.send(.setText("abc"))
    let changes = trackChanges { _ = model.state }
    // when
    model.send(.setText("abc"))
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    model.send(.setText("abcd"))
    // then
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(model.length, 4)
  }

  @MainActor
  func test_observationTracking_reportsOneChangeForSeveralPropertiesChangedAtOnce() async {
    // given
    let model = ObservedReactor(TextReactor())
    let changes = trackChanges {
      _ = model.text
      _ = model.length
    }
    // when
    model.send(.setText("ab"))
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observationTracking_reportsBeforeTheModelChanges() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    let seen = Locked<[Int]>([])
    withObservationTracking {
      _ = model.count
    } onChange: {
      MainActor.assumeIsolated { seen.withLock { $0.append(model.count) } }
    }
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(seen.current, [0])
    XCTAssertEqual(model.count, 1)
  }

  #if compiler(>=6.2)
    @MainActor
    func test_observations_yieldsNewValuesOfThePropertiesItReads() async {
      guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
        return
      }
      // given
      let model = ObservedReactor(ProfileReactor())
      var counts = Observations { model.count }.makeAsyncIterator()
      let first = await counts.next()
      // when: `next()` waits, because the title change is not a change of `count`
      model.send(.setTitle("ignored"))
      Task { @MainActor in model.send(.increase) }
      let second = await counts.next()
      model.send(.increase)
      let third = await counts.next()
      // then
      XCTAssertEqual([first, second, third], [0, 1, 2])
    }
  #endif

  // MARK: - Main-actor delivery

  @MainActor
  func test_stateFromAnotherThread_isAppliedOnTheMainQueue() async {
    // given
    let reactor = ProfileReactor(
      scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "observed.reactor"))
    let model = ObservedReactor(reactor)
    let changes = trackChanges { _ = model.count }
    // when
    model.send(.increase)
    XCTAssertTrue(waitUntil { reactor.currentState.count == 1 })
    // then: not applied until the main queue runs
    XCTAssertEqual(model.count, 0)
    XCTAssertEqual(changes.count, 0)
    let applied = await suspend { model.count == 1 }
    XCTAssertTrue(applied)
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(changes.offMainCount, 0)
  }

  @MainActor
  func test_statesFromAnotherThread_skipToTheLatestWhenTheMainQueueIsLate() async {
    // given
    let reactor = ProfileReactor(
      scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "observed.reactor"))
    let model = ObservedReactor(reactor)
    let changes = trackChanges { _ = model.count }
    // when
    for _ in 0..<100 { model.send(.increase) }
    // `currentState` changes before subscribers see the state: wait for the model to hold it.
    let observed = model.observed
    XCTAssertTrue(
      waitUntil { observed.lock.withLock { observed.pending?.count == 100 } })
    await mainQueueTurn()
    // then
    XCTAssertEqual(model.count, 100)
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_statesFromManyThreads_reachTheModelInOrder() async {
    // given
    let reactor = ProfileReactor()
    let model = ObservedReactor(reactor)
    let threads = 4
    let sendsPerThread = 500
    let finished = AtomicBox<Int>(0)
    Thread {
      runConcurrently(threads: threads) { _ in
        for _ in 0..<sendsPerThread { reactor.action.onNext(.increase) }
      }
      finished.store(1, ordering: .releasing)
    }.start()
    // when
    var seen: [Int] = []
    let total = threads * sendsPerThread
    let reachedTotal = await suspend {
      seen.append(model.count)
      return finished.load(ordering: .acquiring) == 1 && model.count == total
    }
    XCTAssertTrue(reachedTotal)
    // then
    XCTAssertEqual(seen, seen.sorted())
    XCTAssertEqual(model.count, total)
  }

  // MARK: - Reentrancy

  @MainActor
  func test_sendFromAnObserver_runsAfterTheCurrentChange() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    withObservationTracking {
      _ = model.count
    } onChange: {
      MainActor.assumeIsolated { model.send(.setTitle("count changed")) }
    }
    // when
    model.send(.increase)
    // then
    XCTAssertEqual(model.count, 1)
    XCTAssertEqual(model.title, "count changed")
  }

  @MainActor
  func test_readingANewPropertyFromAnObserver_tracksItForLaterChanges() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    let titles = Locked<[String]>([])
    withObservationTracking {
      _ = model.count
    } onChange: {
      MainActor.assumeIsolated { titles.withLock { $0.append(model.title) } }
    }
    model.send(.increase)
    let changes = trackChanges { _ = model.title }
    // when
    model.send(.setTitle("New"))
    // then
    XCTAssertEqual(titles.current, [""])
    XCTAssertEqual(changes.count, 1)
  }

  // MARK: - Stub

  @MainActor
  func test_observedReactor_showsTheStubStateAndRecordsActionsWhenTheStubIsEnabled() async {
    // given
    let reactor = ProfileReactor()
    reactor.isStubEnabled = true
    let model = ObservedReactor(reactor)
    let changes = trackChanges { _ = model.title }
    // when
    reactor.stub.state.accept(.init(title: "Stubbed"))
    model.send(.increase)
    // then
    XCTAssertEqual(model.title, "Stubbed")
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(reactor.stub.actions.count, 1)
    XCTAssertEqual(model.count, 0)
  }

  // MARK: - Lifetime

  @MainActor
  func test_releasingTheModel_releasesTheModelAndTheReactor() async {
    // given
    weak var weakModel: ObservedReactor<ProfileReactor>?
    weak var weakReactor: ProfileReactor?
    // when
    do {
      let model = ObservedReactor(ProfileReactor())
      weakModel = model
      weakReactor = model.reactor
      _ = trackChanges { _ = model.count }
      model.send(.increase)
    }
    // then
    XCTAssertNil(weakModel)
    XCTAssertNil(weakReactor)
  }

  @MainActor
  func test_releasingTheModel_endsItsSubscriptionToAReactorThatLivesOn() async {
    // given
    let reactor = ProfileReactor()
    reactor.action.onNext(.increase)
    let before = Resources.total
    weak var weakModel: ObservedReactor<ProfileReactor>?
    do {
      let model = ObservedReactor(reactor)
      weakModel = model
      _ = model.count
      XCTAssertGreaterThan(Resources.total, before)
    }
    // when
    reactor.action.onNext(.increase)
    // then
    XCTAssertNil(weakModel)
    XCTAssertEqual(Resources.total, before)
    XCTAssertEqual(reactor.currentState.count, 2)
  }

  @MainActor
  func test_stateArrivingAfterTheModelWasReleased_isDropped() async {
    // given
    let reactor = ProfileReactor(
      scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "observed.reactor"))
    weak var weakModel: ObservedReactor<ProfileReactor>?
    do {
      let model = ObservedReactor(reactor)
      weakModel = model
      // when: the state hop is queued, then the model goes away
      model.send(.increase)
      XCTAssertTrue(waitUntil { reactor.currentState.count == 1 })
    }
    await mainQueueTurn()
    // then
    XCTAssertNil(weakModel)
  }
}

/// Reads a property through the model without knowing whether it is `Equatable`.
@MainActor
private func readAnyValue<Value>(
  _ model: ObservedReactor<ProfileReactor>, _ path: KeyPath<ProfileReactor.State, Value>
) -> Value {
  model[dynamicMember: path]
}
