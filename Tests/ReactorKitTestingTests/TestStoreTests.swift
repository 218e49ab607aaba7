import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import Testing
import XCTest

final class TestStoreTests: ResourceTestCase {
  func test_testStore_passingSendAndReceiveReportNothing() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.rename("Ann")) { $0.name = "Ann" }
    store.send(ProfileAction.save) { $0.isSaving = true }
    store.receive(ProfileAction.saved) {
      $0.isSaving = false
      $0.saveCount = 1
    }
    store.send(ProfileAction.rename("Bob")) { $0.name = "Bob" }
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(store.state, Profile(name: "Bob", isSaving: false, saveCount: 1))
  }

  func test_testStore_installsPluginsLikeAStore() {
    // given: an undo history installed the way a store installs it
    let failures = FailureLog()
    let history = StateHistory<String>()
    let store = TestStore(
      reducer: profileReducer, state: Profile(), plugins: [history.scoped(to: \.name)])
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.rename("Ann")) { $0.name = "Ann" }
    history.stepBack()
    // then: the history's navigation is an action the store received
    store.receive({ $0 is HistoryAction }, assert: { $0.name = "" })
    store.finish()
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(store.store.currentState.name, "")
  }

  func test_testStore_receivePredicateForm() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.save) { $0.isSaving = true }
    store.receive(
      { ($0 as? ProfileAction) == .saved },
      assert: {
        $0.isSaving = false
        $0.saveCount = 1
      })
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_testStore_sendWithWrongExpectationReportsADiff() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile())
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.rename("Ann")) { $0.name = "Anne" }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        """
        The state after sending ProfileAction.rename("Ann") does not match the expected state \
        (1 difference):
          \\.name: expected "Anne", actual "Ann"
        """
      ])
    XCTAssertEqual(store.state.name, "Ann", "The test store continues from the actual state.")
  }

  func test_testStore_sendWithoutExpectationReportsAnyChange() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile())
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.save)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        """
        The state changed after sending ProfileAction.save, but no change was expected \
        (1 difference):
          \\.isSaving: expected false, actual true
        """
      ])
    store.skipReceivedActions()
  }

  func test_testStore_failurePointsAtTheCallSite() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile())
    store.reportFailure = failures.record
    // when
    let line: UInt = #line + 1
    store.send(ProfileAction.rename("x")) { $0.name = "y" }
    // then
    XCTAssertEqual(failures.failures.first?.line, line)
    XCTAssertEqual(
      failures.failures.first.map { String(describing: $0.fileID) },
      "ReactorKitTestingTests/TestStoreTests.swift")
  }

  func test_testStore_receiveOfAnotherActionReportsBoth() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    store.send(ProfileAction.save) { $0.isSaving = true }
    // when
    store.receive(ProfileAction.rename("Ann"))
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "Expected to receive ProfileAction.rename(\"Ann\"), but received ProfileAction.saved."
      ])
  }

  func test_testStore_receiveWhenNothingWasReceived() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile())
    store.reportFailure = failures.record
    store.send(ProfileAction.rename("Ann")) { $0.name = "Ann" }
    // when
    store.receive({ _ in true })
    store.receive(ProfileAction.saved, timeout: 0.05)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "Expected to receive an action matching the predicate, but no action was received.",
        "Expected to receive ProfileAction.saved, but no action was received within 0.05 seconds.",
      ])
  }

  func test_testStore_receiveWithWrongStateChange() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    store.send(ProfileAction.save) { $0.isSaving = true }
    // when
    store.receive(ProfileAction.saved) { $0.saveCount = 2 }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        """
        The state after receiving ProfileAction.saved does not match the expected state \
        (2 differences):
          \\.isSaving: expected true, actual false
          \\.saveCount: expected 2, actual 1
        """
      ])
  }

  func test_testStore_finishFailsOnUnassertedReceivedActions() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    store.send(ProfileAction.save) { $0.isSaving = true }
    // when
    store.finish()
    store.finish()
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "1 received action was not asserted before the test ended: ProfileAction.saved. "
          + "Assert it with receive, or skip it with skipReceivedActions()."
      ])
  }

  func test_testStore_deinitFinishesAtTheInitialiserLocation() {
    // given
    let failures = FailureLog()
    let line: UInt = #line + 2
    do {
      let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
      store.reportFailure = failures.record
      store.send(ProfileAction.save) { $0.isSaving = true }
      store.send(ProfileAction.rename("A")) { $0.name = "A" }
      store.send(ProfileAction.save) { $0.isSaving = true }
    }
    // then: the first `saved` fails the second send; the second is still pending at deinit
    XCTAssertEqual(failures.failures.count, 2)
    XCTAssertEqual(
      failures.messages.first,
      "1 received action must be asserted before sending ProfileAction.rename(\"A\"): "
        + "ProfileAction.saved.")
    XCTAssertEqual(failures.failures.last?.line, line)
    XCTAssertTrue(failures.messages.last?.contains("not asserted before the test ended") == true)
  }

  func test_testStore_sentActionsMultipliedAndDroppedByMiddleware() {
    // given: middleware triples renames and drops saves
    let failures = FailureLog()
    let middleware = Middleware<Profile> { _, _, action in
      switch action {
      case ProfileAction.rename: return [action, action, action]
      case ProfileAction.save: return []
      default: return [action]
      }
    }
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [middleware])
    store.reportFailure = failures.record
    var names: [String] = []
    let subscription = store.store.slice(\.name).subscribe(onNext: { names.append($0) })
    // when: one send covers every reduction it caused directly
    store.send(ProfileAction.rename("x")) { $0.name = "x" }
    store.send(ProfileAction.save)
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(names, ["", "x"])
    subscription.dispose()
  }

  func test_testStore_receivesActionsDispatchedFromAnotherThread() {
    // given
    let failures = FailureLog()
    let background = Middleware<Profile>().sideEffect { _, dispatch, action in
      guard case ProfileAction.save = action else { return }
      let box = UncheckedSendable(dispatch)
      DispatchQueue.global().async { box.value(ProfileAction.saved) }
    }
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [background])
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.save) { $0.isSaving = true }
    store.receive(ProfileAction.saved, timeout: 10) {
      $0.isSaving = false
      $0.saveCount = 1
    }
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_testStore_exhaustivityOffChecksOnlyWhatIsAsserted() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: profileReducer, state: Profile(), middleware: [saveEffect])
    store.reportFailure = failures.record
    store.exhaustivity = .off
    // when
    store.send(ProfileAction.save)
    store.send(ProfileAction.rename("Ann")) { $0.name = "Ann" }
    store.send(ProfileAction.save)
    store.receive(ProfileAction.saved) { $0.saveCount = 2 }
    store.send(ProfileAction.rename("Bob")) { $0.name = "Wrong" }
    store.finish()
    // then: the skipped `saved` and the unasserted fields pass; the wrong name fails
    XCTAssertEqual(
      failures.messages,
      [
        """
        The state after sending ProfileAction.rename("Bob") does not match the expected state \
        (1 difference):
          \\.name: expected "Wrong", actual "Bob"
        """
      ])
    XCTAssertEqual(store.state, Profile(name: "Bob", isSaving: false, saveCount: 2))
  }

  func test_testStore_wrapsAnExistingStore() {
    // given
    let failures = FailureLog()
    let existing = Store(reducer: profileReducer, state: Profile())
    existing.dispatch(ProfileAction.rename("Before"))
    let store = TestStore(store: existing)
    store.reportFailure = failures.record
    // when
    store.send(ProfileAction.rename("After")) { $0.name = "After" }
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_stateDifference_describesNestedCollectionsOptionalsAndEnums() {
    // given
    let expected = Detailed(
      tags: ["a", "b", "c"], scores: ["x": 1, "y": 2], nickname: nil, mode: .named("one"),
      point: (1, 2), flags: [1, 2])
    var actual = Detailed(
      tags: ["a", "B"], scores: ["x": 1, "z": 3], nickname: "Al", mode: .named("two"),
      point: (1, 3), flags: [2, 3])
    actual.kind = .second
    let store = TestStore(reducer: Reducer { _, _ in }, state: expected)
    let failures = FailureLog()
    store.reportFailure = failures.record
    // when
    store.send(DetailAction.touch) { $0 = actual }
    // then: the reducer changes nothing, so `actual` is what was expected
    XCTAssertEqual(
      failures.messages.first,
      """
      The state after sending DetailAction.touch does not match the expected state \
      (10 differences):
        \\.tags[1]: expected "B", actual "b"
        \\.tags[2]: expected (none), actual "c"
        \\.scores["y"]: expected (none), actual 2
        \\.scores["z"]: expected 3, actual (none)
        \\.nickname: expected "Al", actual nil
        \\.mode.named: expected "two", actual "one"
        \\.point.1: expected 3, actual 2
        \\.flags: expected to contain 3, but it does not
        \\.flags: contains 1, which was not expected
        \\.kind: expected Kind.second, actual Kind.first
      """)
  }
}

@Suite struct TestStoreSwiftTestingTests {
  @Test func failuresAreRecordedAsSwiftTestingIssues() {
    let store = TestStore(reducer: profileReducer, state: Profile())
    withKnownIssue {
      store.send(ProfileAction.rename("Ann")) { $0.name = "Bob" }
    }
    store.send(ProfileAction.rename("Cy")) { $0.name = "Cy" }
    store.finish()
  }
}

private enum ProfileAction: Action, Equatable {
  case rename(String)
  case save
  case saved
}

private struct Profile: Equatable {
  var name = ""
  var isSaving = false
  var saveCount = 0
}

private var profileReducer: Reducer<Profile> {
  Reducer.on(ProfileAction.self) { state, action in
    switch action {
    case .rename(let name): state.name = name
    case .save: state.isSaving = true
    case .saved:
      state.isSaving = false
      state.saveCount += 1
    }
  }
}

/// Saves synchronously: each `save` dispatches `saved`.
private var saveEffect: Middleware<Profile> {
  Middleware().sideEffect { _, dispatch, action in
    if case ProfileAction.save = action { dispatch(ProfileAction.saved) }
  }
}

private enum Kind { case first, second }

private enum Mode: Equatable {
  case none
  case named(String)
}

private struct Detailed: Equatable {
  var tags: [String]
  var scores: [String: Int]
  var nickname: String?
  var mode: Mode
  var point: (Int, Int)
  var flags: Set<Int>
  var kind = Kind.first

  init(
    tags: [String], scores: [String: Int], nickname: String?, mode: Mode, point: (Int, Int),
    flags: Set<Int>
  ) {
    self.tags = tags
    self.scores = scores
    self.nickname = nickname
    self.mode = mode
    self.point = point
    self.flags = flags
  }

  static func == (lhs: Detailed, rhs: Detailed) -> Bool {
    lhs.tags == rhs.tags && lhs.scores == rhs.scores && lhs.nickname == rhs.nickname
      && lhs.mode == rhs.mode && lhs.point == rhs.point && lhs.flags == rhs.flags
      && lhs.kind == rhs.kind
  }
}

/// An action the reducer of the state-difference test ignores.
private enum DetailAction: Action, Equatable {
  case touch
}
