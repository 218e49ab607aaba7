import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class PulseTests: ResourceTestCase {
  func test_pulse_countsEveryAssignmentIncludingEqualValues() {
    // given
    var state = PulseState()
    let initialCount = state.$message.valueUpdatedCount
    // when
    state.message = "a"
    let afterFirst = state.$message.valueUpdatedCount
    state.message = "a"
    state.message = nil
    // then
    XCTAssertEqual(initialCount, 0)
    XCTAssertEqual(afterFirst, 1)
    XCTAssertEqual(state.$message.valueUpdatedCount, 3)
    XCTAssertNil(state.$message.value)
  }

  func test_pulse_readingDoesNotCount() {
    // given
    var state = PulseState()
    state.message = "a"
    // when
    _ = state.message
    _ = state.$message.value
    // then
    XCTAssertEqual(state.$message.valueUpdatedCount, 1)
  }

  func test_pulse_countWrapsToZeroAfterMaximum() {
    // given
    var pulse = Pulse(wrappedValue: 0)
    pulse.valueUpdatedCount = .max
    // when
    pulse.value = 1
    let afterWrap = pulse.valueUpdatedCount
    pulse.value = 2
    // then
    XCTAssertEqual(afterWrap, 0)
    XCTAssertEqual(pulse.valueUpdatedCount, 1)
  }

  func test_reactorPulse_emitsOnEveryAssignmentEvenOfAnEqualValue() {
    // given
    let reactor = AlertReactor()
    var received: [String] = []
    let subscription = reactor.pulse(\.$message).compactMap { $0 }.subscribe(onNext: {
      received.append($0)
    })
    // when
    reactor.action.onNext(.show("1"))
    reactor.action.onNext(.increase)
    reactor.action.onNext(.show(nil))
    reactor.action.onNext(.show("2"))
    reactor.action.onNext(.increase)
    reactor.action.onNext(.show("3"))
    reactor.action.onNext(.show("3"))
    // then
    XCTAssertEqual(received, ["1", "2", "3", "3"])
    XCTAssertEqual(reactor.currentState.count, 2)
    subscription.dispose()
  }

  func test_reactorPulse_lateSubscriberGetsCurrentValueOnce() {
    // given
    let reactor = AlertReactor()
    reactor.action.onNext(.show("1"))
    var received: [String?] = []
    // when
    let subscription = reactor.pulse(\.$message).subscribe(onNext: { received.append($0) })
    reactor.action.onNext(.increase)
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(received, ["1"])
    subscription.dispose()
  }

  func test_reactorPulse_eachSubscriptionTracksItsOwnCount() {
    // given
    let reactor = AlertReactor()
    let pulse = reactor.pulse(\.$message)
    var first: [String?] = []
    var second: [String?] = []
    let firstSubscription = pulse.subscribe(onNext: { first.append($0) })
    reactor.action.onNext(.show("1"))
    // when
    let secondSubscription = pulse.subscribe(onNext: { second.append($0) })
    reactor.action.onNext(.show("1"))
    // then
    XCTAssertEqual(first, [nil, "1", "1"])
    XCTAssertEqual(second, ["1", "1"])
    firstSubscription.dispose()
    secondSubscription.dispose()
  }
}

// MARK: - Fakes

private struct PulseState {
  @Pulse var message: String?
}

private final class AlertReactor: Reactor {
  enum Action {
    case show(String?)
    case increase
  }

  struct State {
    @Pulse var message: String?
    var count = 0
  }

  let initialState = State()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .show(let message): state.message = message
    case .increase: state.count += 1
    }
    return state
  }
}
