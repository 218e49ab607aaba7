import Foundation
import Observation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// The engine behind ``ObservedReactor`` and ``ObservedStore`` on its own, without a reactor or
/// a store: which members a read remembers, which observers a new state invalidates (by
/// equality, by a pulse's assignment count, always for other values), when a state received on
/// or off the main thread is applied, states received while one is being applied, and
/// cancellation.
///
/// Engine: ObservedState.swift and ObservedStateStorage.swift.
final class ObservedStateTests: ResourceTestCase {
  struct Opaque {
    var value: Int
  }

  struct Fields {
    var count = 0
    var title = ""
    @Pulse var alert: String = ""
    var opaque = Opaque(value: 0)
  }

  // MARK: - Members

  @MainActor
  func test_read_remembersEachKeyPathOnce() async {
    // given
    let observed = ObservedState(Fields(count: 3, title: "a"))
    // when
    let first = observed.read(\.count)
    let again = observed.read(\.count)
    let title = observed.read(\.title)
    // then
    XCTAssertEqual(first, 3)
    XCTAssertEqual(again, 3)
    XCTAssertEqual(title, "a")
    XCTAssertEqual(observed.memberCount, 2)
  }

  // MARK: - What a new state invalidates

  @MainActor
  func test_apply_invalidatesOnlyObserversOfChangedEquatableMembers() async {
    // given
    let observed = ObservedState(Fields())
    let countChanges = trackChanges { _ = observed.read(\.count) }
    let titleChanges = trackChanges { _ = observed.read(\.title) }
    // when: only the title changes
    observed.apply(Fields(count: 0, title: "new"))
    // then
    XCTAssertEqual(countChanges.count, 0)
    XCTAssertEqual(titleChanges.count, 1)
    XCTAssertEqual(observed.read(\.title), "new")
  }

  @MainActor
  func test_apply_equalValue_invalidatesNothing() async {
    // given
    let observed = ObservedState(Fields(count: 1))
    let changes = trackChanges { _ = observed.read(\.count) }
    // when
    observed.apply(Fields(count: 1))
    // then
    XCTAssertEqual(changes.count, 0)
  }

  @MainActor
  func test_apply_pulseAssignedAnEqualValue_countsAsAChange() async {
    // given
    var state = Fields()
    state.alert = "hi"
    let observed = ObservedState(state)
    let changes = trackChanges { _ = observed.read(\.$alert) }
    // when: the same value assigned again
    state.alert = "hi"
    observed.apply(state)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_apply_nonEquatableMember_alwaysCountsAsAChange() async {
    // given
    let observed = ObservedState(Fields())
    let changes = trackChanges { _ = observed.read(\.opaque) }
    // when: the same value, but nothing can tell
    observed.apply(Fields())
    // then
    XCTAssertEqual(changes.count, 1)
  }

  // MARK: - Receiving states

  @MainActor
  func test_receive_onTheMainThreadWhileIdle_appliesBeforeReturning() async {
    // given
    let observed = ObservedState(Fields())
    // when
    observed.receive(Fields(count: 7))
    // then
    XCTAssertEqual(observed.read(\.count), 7)
  }

  @MainActor
  func test_receive_fromAnObserverDuringApply_isAppliedAfterItInTheSameTurn() async {
    // given
    let observed = ObservedState(Fields())
    let seenInObserver = Locked<[Int]>([])
    withObservationTracking {
      _ = observed.read(\.count)
    } onChange: {
      MainActor.assumeIsolated {
        // willSet: the model still shows the old state; a newer one arrives meanwhile.
        seenInObserver.withLock { $0.append(observed.read(\.count)) }
        observed.receive(Fields(count: 2))
      }
    }
    // when
    observed.receive(Fields(count: 1))
    // then: the observer saw the old state, and both states were applied, in order
    XCTAssertEqual(seenInObserver.current, [0])
    XCTAssertEqual(observed.read(\.count), 2)
  }

  @MainActor
  func test_receive_offTheMainThread_appliesTheNewestStateOnTheMainQueue() async {
    // given
    let observed = ObservedState(Fields())
    // when: a burst from another thread
    let sent = expectation(description: "sent")
    DispatchQueue.global().async {
      for count in 1...200 { observed.receive(Fields(count: count)) }
      sent.fulfill()
    }
    await fulfillment(of: [sent], timeout: 10)
    var seen = [observed.read(\.count)]
    for _ in 0..<1000 where seen.last != 200 {
      await mainQueueTurn()
      seen.append(observed.read(\.count))
    }
    // then: the model ends on the newest state and never went back to an older one
    XCTAssertEqual(seen, seen.sorted())
    XCTAssertEqual(observed.read(\.count), 200)
  }

  @MainActor
  func test_cancel_dropsLaterStates() async {
    // given
    let observed = ObservedState(Fields(count: 1))
    // when
    observed.cancel()
    observed.receive(Fields(count: 2))
    await mainQueueTurn()
    await mainQueueTurn()
    // then
    XCTAssertEqual(observed.read(\.count), 1)
  }

  @MainActor
  func test_follow_disposed_dropsStatesStillOnTheirWayToTheMainQueue() async {
    // given
    let observed = ObservedState(Fields())
    let states = PublishSubject<Fields>()
    let subscription = observed.follow(states.asObservable())
    // The main thread blocks meanwhile, so the drain this queues on the main queue cannot run
    // yet. (A thread of its own: `DispatchQueue.sync` may run the block on the main thread.)
    let sent = DispatchSemaphore(value: 0)
    Thread {
      states.onNext(Fields(count: 5))
      sent.signal()
    }.start()
    XCTAssertEqual(sent.wait(timeout: .now() + 10), .success, "the state was never sent")
    // when: disposed before the main queue ran the drain
    subscription.dispose()
    await mainQueueTurn()
    await mainQueueTurn()
    // then
    XCTAssertEqual(observed.read(\.count), 0)
  }
}
