import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// The defaults a user keeps (issue 21, item 6): a feature state whose name contains a secret
/// word keeps its shape in the log, with only its values hidden, and a `@Pulse` property shows
/// as the property.
final class LogRedactionTests: ResourceTestCase {
  /// The log of `actions` dispatched into a store starting at `state`.
  private func log(
    _ actions: [any Action], state: FeatureState = FeatureState(),
    redaction: LogRedaction = .default
  ) -> String {
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .text), redaction: redaction)
    let store = Store(
      reducer: FeatureState.reducer, state: state, middleware: [logger.middleware()])
    for action in actions { store.dispatch(action) }
    logger.flush()
    return lines.lines.joined(separator: "\n")
  }

  func test_redaction_featureStateNamedSession_keepsItsShapeAndHidesItsValues() {
    // given
    let redaction = LogRedaction.default
    let renderer = ValueRenderer(
      isRedacted: redaction.isRedacted, redactedText: redaction.replacement)
    // when
    let text = renderer.render(FeatureState())
    // then
    XCTAssertEqual(
      text,
      "FeatureState(session: SessionFeature(user: User(name: <redacted>), isLoggingIn: false, "
        + "token: <redacted>, tokens: [<redacted>, <redacted>], credential: Wrapped(raw: "
        + "<redacted>), status: .idle), title: \"visible\")")
  }

  func test_redaction_changeInsideSecretNamedFeature_showsItsPathAndBooleans() {
    // given
    let secrets = ["S-token", "S-new-token", "S-tokens-1", "S-raw", "S-ann"]
    // when
    let log = self.log([
      FeatureAction.startLogin, FeatureAction.setToken("S-new-token"),
      FeatureAction.rename("bob"),
    ])
    // then
    XCTAssertTrue(log.contains(#"\.session.isLoggingIn: false → true"#), log)
    XCTAssertTrue(log.contains(#"\.session.status: .idle → .loggingIn"#), log)
    XCTAssertTrue(log.contains(#"\.session.token: <redacted> → <redacted>"#), log)
    XCTAssertTrue(log.contains(#"\.session.user.name: <redacted> → <redacted>"#), log)
    for secret in secrets {
      XCTAssertFalse(log.contains(secret), "the log contains \(secret):\n\(log)")
    }
  }

  func test_redaction_secretNamedLeafOrElement_isHiddenWhole() {
    // given
    let redaction = LogRedaction.default
    let renderer = ValueRenderer(
      isRedacted: redaction.isRedacted, redactedText: redaction.replacement)
    // when
    let leaf = renderer.render(LeafSecrets(session: "S-1", hasToken: true, pin: 1234))
    let action = renderer.render(FeatureAction.setToken("S-2"))
    // then
    XCTAssertEqual(leaf, "LeafSecrets(session: <redacted>, hasToken: <redacted>, pin: <redacted>)")
    XCTAssertEqual(action, "FeatureAction.setToken(<redacted>)")
  }

  func test_redaction_redactsWholeValues_hidesTheWholeFeature() {
    // given
    var redaction = LogRedaction.default
    redaction.redactsWholeValues = true
    // when
    let log = self.log([FeatureAction.startLogin], redaction: redaction)
    // then
    XCTAssertTrue(log.contains(#"\.session.isLoggingIn: <redacted> → <redacted>"#), log)
    let renderer = ValueRenderer(
      isRedacted: redaction.isRedacted, redactedText: redaction.replacement,
      redactsWholeValues: true)
    XCTAssertEqual(
      renderer.render(FeatureState()),
      "FeatureState(session: <redacted>, title: \"visible\")")
  }

  func test_redaction_recordingToShare_keepsTheShapeOfSecretNamedObjects() throws {
    // given
    var registry = ActionRegistry()
    registry.register(FeatureAction.self)
    let action = FeatureAction.login(
      session: SessionFeature(user: User(name: "S-ann"), token: "S-token"))
    // when
    let bytes = try ActionRecording([action]).jsonLines(registry: registry, redaction: .default)
    let text = String(decoding: bytes, as: UTF8.self)
    // then
    XCTAssertFalse(text.contains("S-ann"), text)
    XCTAssertFalse(text.contains("S-token"), text)
    XCTAssertTrue(text.contains(#""isLoggingIn":false"#), text)
  }

  // MARK: - @Pulse

  func test_pulse_inAReactorsState_showsAsItsPropertyInDiffs() {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .text))
    let reactor = PulsingReactor()
    let installed = reactor.install(logger, source: "pulsing")
    // when
    reactor.action.onNext("boom")
    reactor.action.onNext("boom")
    logger.flush()
    installed.dispose()
    // then
    let log = lines.lines.joined(separator: "\n")
    XCTAssertTrue(log.contains(#"\.errorMessage: nil → "boom""#), log)
    XCTAssertTrue(log.contains(#"\.errorMessage: "boom" → "boom" (again)"#), log)
    XCTAssertFalse(log.contains("_errorMessage"), log)
    XCTAssertFalse(log.contains("valueUpdatedCount"), log)
  }

  func test_pulse_rendersAsItsProperty() {
    // given
    let renderer = ValueRenderer()
    var state = PulsingReactor.State()
    state.errorMessage = "x"
    // when
    let text = renderer.render(state)
    // then
    XCTAssertEqual(text, #"PulsingReactor.State(errorMessage: "x", count: 0)"#)
  }
}

// MARK: - Fakes

private struct User: Codable, Equatable, Sendable {
  var name: String
}

private struct Wrapped: Codable, Equatable, Sendable {
  var raw: String
}

private struct SessionFeature: Codable, Equatable, Sendable {
  enum Status: String, Codable, Equatable, Sendable { case idle, loggingIn }
  var user = User(name: "S-ann")
  var isLoggingIn = false
  var token = "S-token"
  var tokens = ["S-tokens-1", "S-tokens-2"]
  var credential = Wrapped(raw: "S-raw")
  var status = Status.idle
}

private struct FeatureState: Equatable, Sendable {
  var session = SessionFeature()
  var title = "visible"

  static var reducer: Reducer<FeatureState> {
    Reducer { state, action in
      switch action as? FeatureAction {
      case .startLogin?:
        state.session.isLoggingIn = true
        state.session.status = .loggingIn
      case .setToken(let token)?: state.session.token = token
      case .rename(let name)?: state.session.user.name = name
      case .login(let session)?: state.session = session
      case nil: break
      }
    }
  }
}

private enum FeatureAction: Action, Codable, Equatable {
  case startLogin
  case setToken(String)
  case rename(String)
  case login(session: SessionFeature)
}

private struct LeafSecrets {
  var session: String
  var hasToken: Bool
  var pin: Int
}

private final class PulsingReactor: Reactor {
  typealias Action = String
  typealias Mutation = String

  struct State {
    @Pulse var errorMessage: String?
    var count = 0

    init() {
      _errorMessage = Pulse(wrappedValue: nil)
    }
  }

  let initialState = State()

  func mutate(action: String) -> Observable<String> { .just(action) }

  func reduce(state: State, mutation: String) -> State {
    var state = state
    state.errorMessage = mutation
    return state
  }
}
