import ReactorKit
import ReactorKitTesting
import XCTest

final class StubTests: ResourceTestCase {
  func test_stub_replacesActionAndStateObjects() {
    // given
    let reactor = SpyReactor()
    // when
    reactor.isStubEnabled = true
    // then
    XCTAssertTrue(reactor.action === reactor.stub.action)
    XCTAssertTrue(reactor.state === reactor.stub.state.asObservable())
  }

  func test_stub_recordsActionsWithoutRunningMutateOrReduce() {
    // given
    let reactor = SpyReactor()
    reactor.isStubEnabled = true
    // when
    reactor.action.onNext(.start)
    reactor.action.onNext(.start)
    reactor.action.onNext(.stop)
    // then
    XCTAssertEqual(reactor.stub.actions, [.start, .start, .stop])
    XCTAssertEqual(reactor.mutateCount, 0)
    XCTAssertEqual(reactor.reduceCount, 0)
    XCTAssertEqual(reactor.currentState, 0)
  }

  func test_stubState_becomesCurrentStateAndReachesSubscribers() {
    // given
    let reactor = SpyReactor()
    reactor.isStubEnabled = true
    var received: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // when
    reactor.stub.state.value = 1
    let afterFirst = reactor.currentState
    reactor.stub.state.value = -10
    reactor.stub.state.value = -10
    // then
    XCTAssertEqual(afterFirst, 1)
    XCTAssertEqual(reactor.currentState, -10)
    XCTAssertEqual(received, [0, 1, -10, -10])
    subscription.dispose()
  }

  func test_stub_isTheSameObjectOnEveryAccess() {
    // given
    let reactor = SpyReactor()
    // when
    let first = reactor.stub
    let second = reactor.stub
    // then
    XCTAssertTrue(first === second)
    XCTAssertFalse(reactor.isStubEnabled)
  }

  func test_disablingStub_restoresTheRealStreams() {
    // given
    let reactor = SpyReactor()
    let realAction = reactor.action
    reactor.isStubEnabled = true
    reactor.action.onNext(.start)
    // when
    reactor.isStubEnabled = false
    reactor.action.onNext(.start)
    // then
    XCTAssertTrue(reactor.action === realAction)
    XCTAssertEqual(reactor.currentState, 1)
    XCTAssertEqual(reactor.stub.actions, [.start])
  }

  @available(*, deprecated)
  func test_stubIsEnabled_forwardsToReactor() {
    // given
    let reactor = SpyReactor()
    // when
    reactor.stub.isEnabled = true
    // then
    XCTAssertTrue(reactor.isStubEnabled)
    XCTAssertTrue(reactor.stub.isEnabled)
  }
}

// MARK: - Fakes

private final class SpyReactor: Reactor {
  enum Action { case start, stop }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  var mutateCount = 0
  var reduceCount = 0

  func mutate(action: Action) -> Observable<Int> {
    mutateCount += 1
    return .just(action == .start ? 1 : -1)
  }

  func reduce(state: Int, mutation: Int) -> Int {
    reduceCount += 1
    return state + mutation
  }
}
