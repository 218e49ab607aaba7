import ReactorKit
import ReactorKitTesting
import XCTest

/// The reactor's names from the guides' naming table: `send`, and the non-throwing
/// asynchronous sequences `states` and `values(_:)`.
final class ReactorNamingTests: ResourceTestCase {
  func test_send_isActionOnNext() {
    // given
    let reactor = NamingReactor()
    // when
    reactor.send(.add(2))
    reactor.action.onNext(.add(3))
    // then
    XCTAssertEqual(reactor.currentState.total, 5)
  }

  func test_send_withTheStubEnabledIsRecorded() {
    // given
    let reactor = NamingReactor()
    reactor.isStubEnabled = true
    // when
    reactor.send(.add(1))
    // then
    XCTAssertEqual(reactor.stub.actions, [.add(1)])
    XCTAssertEqual(reactor.currentState.total, 0)
  }

  func test_send_fromAStateSubscriberIsQueuedAfterTheCurrentAction() {
    // given
    let reactor = NamingReactor()
    var totals: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { state in
      totals.append(state.total)
      if state.total == 1 { reactor.send(.add(10)) }
    })
    // when
    reactor.send(.add(1))
    // then
    XCTAssertEqual(totals, [0, 1, 11])
    subscription.dispose()
  }

  func test_states_isANonThrowingSequenceOfEveryState() async {
    // given
    let reactor = NamingReactor()
    var iterator = reactor.states.makeAsyncIterator()
    // when
    reactor.send(.add(1))
    reactor.send(.rename("x"))
    // then
    var totals: [Int] = []
    for _ in 0..<3 { if let state = await iterator.next() { totals.append(state.total) } }
    XCTAssertEqual(totals, [0, 1, 1])
  }

  func test_values_followsOneFieldWithoutRepeats() async {
    // given
    let reactor = NamingReactor()
    var iterator = reactor.values(\.total).makeAsyncIterator()
    // when
    reactor.send(.rename("unchanged total"))
    reactor.send(.add(4))
    // then
    let first = await iterator.next()
    let second = await iterator.next()
    XCTAssertEqual([first, second], [0, 4])
  }

  func test_states_doesNotHoldTheReactorAndEndsWhenTheTaskIsCancelled() async {
    // given
    weak var weakReactor: NamingReactor?
    var reactor: NamingReactor? = NamingReactor()
    weakReactor = reactor
    let states = reactor!.states
    reactor!.send(.add(1))
    let started = AsyncStream<Void>.makeStream()
    let task = Task {
      var totals: [Int] = []
      for await state in states {
        totals.append(state.total)
        started.continuation.yield()
      }
      return totals
    }
    var iterator = started.stream.makeAsyncIterator()
    await iterator.next()
    await iterator.next()
    // when
    reactor = nil
    task.cancel()
    // then
    let totals = await task.value
    XCTAssertNil(weakReactor)
    XCTAssertEqual(totals, [0, 1])
  }
}

// MARK: - Fakes

private final class NamingReactor: Reactor {
  enum Action: Equatable {
    case add(Int)
    case rename(String)
  }
  struct State: Sendable {
    var total = 0
    var name = ""
  }
  let initialState = State()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .add(let amount): state.total += amount
    case .rename(let name): state.name = name
    }
    return state
  }
}
