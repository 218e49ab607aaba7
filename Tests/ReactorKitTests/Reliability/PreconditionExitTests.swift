import Foundation
import ReactorKit
import ReactorKitTesting
import Testing

/// The documented preconditions of ReactorKit and its test support stop the program: each
/// test runs its body in a child process that must exit with a failure.
@Suite struct PreconditionExitTests {
  @Test func actionRegistry_nameTakenByAnotherType_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      var registry = ActionRegistry()
      registry.register(FirstAction.self, as: "shared")
      registry.register(SecondAction.self, as: "shared")
    }
  }

  @Test func actionRegistry_typeRegisteredUnderAnotherName_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      var registry = ActionRegistry()
      registry.register(FirstAction.self, as: "one")
      registry.register(FirstAction.self, as: "two")
    }
  }

  @Test func testScheduler_advancingBackInTime_stopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler(initialClock: 0)
      scheduler.advanceTo(100)
      scheduler.advanceTo(50)
    }
  }

  #if DEBUG
    @Test func reactorStateBoundWithAnError_stopsTheProgramInDebugBuilds() async {
      await #expect(processExitsWith: .failure) {
        let reactor = FailingTransformReactor()
        _ = reactor.state.bind(onNext: { _ in })
        reactor.action.onNext(13)
      }
    }
  #endif
}

private struct FirstAction: Action, Codable {}

private struct SecondAction: Action, Codable {}

/// A reactor whose `transform(state:)` fails on the state 13, which reaches `state`.
private final class FailingTransformReactor: Reactor {
  typealias Action = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }

  func transform(state: Observable<Int>) -> Observable<Int> {
    state.map { state in
      if state == 13 { throw CancellationError() }
      return state
    }
  }
}
