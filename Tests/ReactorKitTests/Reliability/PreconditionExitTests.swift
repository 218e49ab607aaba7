import Foundation
import ReactorKit
import ReactorKitTesting
import Testing

/// The documented preconditions of ReactorKit and its test support stop the program: each
/// test runs its body in a child process that must exit with a failure and print the
/// precondition's own message on standard error (any other crash fails the test).
@Suite struct PreconditionExitTests {
  /// Checks that the child process's standard error names `message`.
  private func expectMessage(
    _ result: ExitTest.Result?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let standardError = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
    #expect(
      standardError?.contains(message) == true,
      "standard error: \(standardError ?? "none")", sourceLocation: sourceLocation)
  }

  @Test func actionRegistry_nameTakenByAnotherType_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var registry = ActionRegistry()
      registry.register(FirstAction.self, as: "shared")
      registry.register(SecondAction.self, as: "shared")
    }
    expectMessage(result, "the name \"shared\" is already registered for another type")
  }

  @Test func statePersistence_twoMigrationsFromOneVersion_stopTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = StatePersistence<Int>(
        url: URL(fileURLWithPath: "/tmp/never-written.json"), schemaVersion: 3,
        migrations: [.json(from: 1) { _ in }, .json(from: 1) { _ in }])
    }
    expectMessage(result, "two migrations from schema version 1; declare one step per version")
  }

  @Test func statePersistence_migrationFromTheCurrentVersion_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = StatePersistence<Int>(
        url: URL(fileURLWithPath: "/tmp/never-written.json"), schemaVersion: 2,
        migrations: [.json(from: 2) { _ in }])
    }
    expectMessage(result, "each step reads a version below schemaVersion")
  }

  @Test func actionRegistry_typeRegisteredUnderAnotherName_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var registry = ActionRegistry()
      registry.register(FirstAction.self, as: "one")
      registry.register(FirstAction.self, as: "two")
    }
    expectMessage(result, "FirstAction is already registered as \"one\"")
  }

  @Test func testScheduler_advancingBackInTime_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = TestScheduler(initialClock: 0)
      scheduler.advanceTo(100)
      scheduler.advanceTo(50)
    }
    expectMessage(result, "TestScheduler.advanceTo: cannot move back in time.")
  }

  @Test func testClock_advancingBackInTime_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let clock = TestClock(scheduler: TestScheduler(initialClock: 0))
      await clock.advance(by: .seconds(-1))
    }
    expectMessage(result, "TestClock.advance(by:): cannot move back in time.")
  }

  #if DEBUG
    @Test func reactorStateBoundWithAnError_stopsTheProgramInDebugBuilds() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let reactor = FailingTransformReactor()
        _ = reactor.state.bind(onNext: { _ in })
        reactor.action.onNext(13)
      }
      expectMessage(result, "Binding error: CancellationError()")
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
