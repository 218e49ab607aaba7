import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Secrets that reached the log before (issue 14, item 4): each test logs one kind of leak
/// through a store with a ``LoggingPlugin``, in text and in JSON lines, and checks that the
/// secret is in neither.
final class LogRedactionLeakTests: ResourceTestCase {
  /// Dispatches `actions` into a store starting at `state`, logged in both formats; returns
  /// the two logs.
  private func logs<State: Sendable>(
    state: State, reducer: Reducer<State>, actions: [any Action],
    redaction: LogRedaction = .default
  ) -> [LogFormat: String] {
    var result: [LogFormat: String] = [:]
    for format in [LogFormat.text, .jsonLines] {
      let lines = LinesBox()
      let logger = LoggingPlugin(sink: lines.sink(format: format), redaction: redaction)
      let store = Store(reducer: reducer, state: state, middleware: [logger.middleware()])
      for action in actions { store.dispatch(action) }
      logger.flush()
      result[format] = lines.lines.joined(separator: "\n")
    }
    return result
  }

  private func assertAbsent(
    _ secrets: [String], in logs: [LogFormat: String], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertEqual(logs.count, 2, file: file, line: line)
    for (format, log) in logs {
      XCTAssertFalse(log.isEmpty, "nothing was logged as \(format)", file: file, line: line)
      for secret in secrets {
        XCTAssertFalse(
          log.contains(secret), "the \(format) log contains \(secret):\n\(log)", file: file,
          line: line)
      }
    }
  }

  private func assertPresent(
    _ texts: [String], in logs: [LogFormat: String], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    for (format, log) in logs {
      for text in texts {
        XCTAssertTrue(
          log.contains(text), "the \(format) log lacks \(text):\n\(log)", file: file, line: line)
      }
    }
  }

  // MARK: - Names matched by words

  func test_redaction_secretNamesInCamelAndSnakeCase_areRedacted_inActionsAndStates() {
    // given
    let secrets = LeakyFields(
      api_key: "S-apikey", passwordHash: "S-hash", secretKey: "S-secretkey",
      private_key: "S-private", tokens: ["S-tok1", "S-tok2"], pin: 424_242, otp: "S-otp",
      credential: "S-credential", session: "S-session", sessionID: "S-sessionid",
      userPIN: "S-userpin", refresh_tokens: ["S-refresh"], spinner: "visible-spinner",
      opinion: "visible-opinion", sessionCount: 31_337, tokenExpiry: "visible-expiry")
    // when
    let logs = self.logs(
      state: LeakyState(), reducer: LeakyState.reducer, actions: [LeakyAction.set(secrets)])
    // then
    assertAbsent(
      [
        "S-apikey", "S-hash", "S-secretkey", "S-private", "S-tok1", "S-tok2", "424242",
        "S-otp", "S-credential", "S-session", "S-sessionid", "S-userpin", "S-refresh",
      ], in: logs)
    assertPresent(["visible-spinner", "visible-opinion", "31337", "visible-expiry"], in: logs)
  }

  func test_redaction_wordRule_onNames() {
    // given
    let redaction = LogRedaction.default
    // then: words of secret names, in any case style, plurals included
    for name in [
      "password", "passwordHash", "api_key", "APIKey", "apiKeys", "secretKey", "private_key",
      "tokens", "accessToken", "refresh_token", "pin", "userPIN", "otp", "otpCode",
      "credential", "credentials", "session", "sessionID", "session_token", "cookie",
      "authorization", "setToken", "PASSWORD",
    ] {
      XCTAssertTrue(redaction.isRedacted(name), name)
    }
    // and not words that merely contain them, nor facts about a secret
    for name in [
      "spinner", "opinion", "pinned", "tokenizer", "sessionCount", "sessionStart",
      "tokenExpiry", "passwordLength", "isPasswordVisible", "keyboard", "monkey", "title",
      "possession",
    ] {
      XCTAssertFalse(redaction.isRedacted(name), name)
    }
  }

  // MARK: - AnyHashable

  func test_redaction_valueWrappedInAnyHashable_isRedactedByItsFields() {
    // given
    let wrapped = AnyHashable(HashableLogin(user: "ann", password: "S-anyhashable"))
    // when
    let logs = self.logs(
      state: LeakyState(), reducer: LeakyState.reducer,
      actions: [LeakyAction.wrapped(wrapped), LeakyAction.keyed([AnyHashable("token"): "S-key"])])
    // then
    assertAbsent(["S-anyhashable", "S-key"], in: logs)
    assertPresent(["ann"], in: logs)
  }

  // MARK: - URLs

  func test_redaction_urlCredentialsAndSecretQueryItems_areRedacted() throws {
    // given
    let url = try XCTUnwrap(
      URL(
        string:
          "https://ana:S-urlpass@example.com/p?access_token=S-urltoken&page=2&api_key=S-urlkey#id_token=S-fragment"
      ))
    // when
    let logs = self.logs(
      state: LeakyState(), reducer: LeakyState.reducer, actions: [LeakyAction.open(url)])
    // then
    assertAbsent(["S-urlpass", "S-urltoken", "S-urlkey", "S-fragment", "ana:"], in: logs)
    assertPresent(["example.com/p", "page=2"], in: logs)
  }

  // MARK: - Error messages

  func test_redaction_encodingErrorsInPersistenceErrors_doNotCarryTheValue() throws {
    // given: a state whose encoding fails, with the value in the EncodingError
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let persistence = StatePersistence<UnencodableSecret>(
      url: directory.file("state.json"), scheduler: TestScheduler(initialClock: 0))
    var caught: PersistenceError?
    do {
      try persistence.save(UnencodableSecret(password: "S-encoding"))
    } catch {
      caught = error
    }
    let error = try XCTUnwrap(caught)
    // when
    let logs = self.logs(
      state: LeakyState(), reducer: LeakyState.reducer,
      actions: [LeakyAction.saveFailed(error)])
    // then
    XCTAssertFalse(String(describing: error).contains("S-encoding"), "\(error)")
    assertAbsent(["S-encoding"], in: logs)
  }

  func test_redaction_encodingErrorsInRecordingErrors_doNotCarryTheValue() {
    // given
    var registry = ActionRegistry()
    registry.register(UnencodableAction.self)
    let errors = StoreLockedBox<[RecordingError]>([])
    let recorder = ActionRecorder(registry: registry) { error in
      errors.withLock { $0.append(error) }
    }
    // when
    recorder.record(UnencodableAction(password: "S-recording"))
    let logs = self.logs(
      state: LeakyState(), reducer: LeakyState.reducer,
      actions: errors.current.map { LeakyAction.recordingFailed($0) })
    // then
    XCTAssertEqual(errors.current.count, 1)
    for error in errors.current {
      XCTAssertFalse(String(describing: error).contains("S-recording"), "\(error)")
    }
    assertAbsent(["S-recording"], in: logs)
  }

  // MARK: - Recordings to share

  func test_recorder_writesUnredacted_byDefault_andRedactsWhenAsked() throws {
    // given
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let plain = directory.file("plain.jsonl")
    let shared = directory.file("shared.jsonl")
    let action = DemoAction.logIn(name: "ann", password: "S-recorded")
    // when
    let plainRecorder = try ActionRecorder(registry: DemoState.registry, url: plain)
    let sharedRecorder = try ActionRecorder(
      registry: DemoState.registry, url: shared, redaction: .default)
    plainRecorder.record(action)
    sharedRecorder.record(action)
    // then: the owner's recording replays exactly; the shared one hides the secret
    XCTAssertTrue(try String(contentsOf: plain, encoding: .utf8).contains("S-recorded"))
    let sharedText = try String(contentsOf: shared, encoding: .utf8)
    XCTAssertFalse(sharedText.contains("S-recorded"), sharedText)
    XCTAssertTrue(sharedText.contains("ann"), sharedText)
    let replayed = try ActionRecording(contentsOf: shared, registry: DemoState.registry)
    XCTAssertEqual(
      replayed.actions as? [DemoAction], [.logIn(name: "ann", password: "<redacted>")],
      "a redacted string replays as the replacement")
    let copy = try ActionRecording([action]).jsonLines(
      registry: DemoState.registry, redaction: .default)
    XCTAssertFalse(String(decoding: copy, as: UTF8.self).contains("S-recorded"))
  }
}

// MARK: - Fakes

struct LeakyFields: Equatable, Sendable {
  var api_key: String
  var passwordHash: String
  var secretKey: String
  var private_key: String
  var tokens: [String]
  var pin: Int
  var otp: String
  var credential: String
  var session: String
  var sessionID: String
  var userPIN: String
  var refresh_tokens: [String]
  var spinner: String
  var opinion: String
  var sessionCount: Int
  var tokenExpiry: String
}

struct HashableLogin: Hashable, Sendable {
  var user: String
  var password: String
}

enum LeakyAction: Action, @unchecked Sendable {
  // Safety: test values, only read.
  case set(LeakyFields)
  case wrapped(AnyHashable)
  case keyed([AnyHashable: String])
  case open(URL)
  case saveFailed(PersistenceError)
  case recordingFailed(RecordingError)
}

struct LeakyState: @unchecked Sendable {
  // Safety: test values, only read.
  var fields: LeakyFields?
  var extra: [AnyHashable] = []
  var lastURL: URL?
  var failures = 0

  static var reducer: Reducer<LeakyState> {
    Reducer { state, action in
      switch action {
      case LeakyAction.set(let fields): state.fields = fields
      case LeakyAction.wrapped(let value): state.extra.append(value)
      case LeakyAction.open(let url): state.lastURL = url
      case LeakyAction.saveFailed, LeakyAction.recordingFailed: state.failures += 1
      default: break
      }
    }
  }
}

/// A value whose encoding fails with an `EncodingError` that carries the value.
struct UnencodableSecret: Codable, Sendable {
  var password: String

  init(password: String) {
    self.password = password
  }

  init(from decoder: any Decoder) throws {
    password = try decoder.singleValueContainer().decode(String.self)
  }

  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "refused"))
  }
}

struct UnencodableAction: Action, Codable, Sendable {
  var password: String

  init(password: String) {
    self.password = password
  }

  init(from decoder: any Decoder) throws {
    password = try decoder.singleValueContainer().decode(String.self)
  }

  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "refused"))
  }
}
