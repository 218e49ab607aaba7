import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Schema migrations of saved states, against real files written by the earlier versions of a
/// notebook model (`Fixtures/notebook-v*.json`; `test_fixtures_areWhatTheOldVersionsWrote`
/// proves they are, and rewrites them with `WRITE_PERSISTENCE_FIXTURES=1`).
final class StateMigrationTests: ResourceTestCase {
  private var directory: TemporaryDirectory!
  private var url: URL { directory.file("notebook.json") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  // MARK: - The notebook model, version by version

  /// Version 1: the notes as plain strings.
  struct NotebookV1: Codable, Sendable {
    var notes: [String]
  }

  /// Version 2: each note with a pinned flag.
  struct NotebookV2: Codable, Sendable {
    struct Note: Codable, Sendable {
      var text: String
      var isPinned: Bool
    }
    var notes: [Note]
  }

  /// Version 3 (the current one): `notes` renamed `entries`, and a title.
  struct Notebook: Codable, Equatable, Sendable {
    struct Entry: Codable, Equatable, Sendable {
      var text: String
      var isPinned: Bool
    }
    var title: String
    var entries: [Entry]
  }

  /// Version 4, of a newer app than this one.
  struct NotebookV4: Codable, Sendable {
    var title: String
    var entries: [Notebook.Entry]
    var color: String
  }

  /// How many times each step ran.
  private let runs = LockedValues<Int>()

  private var steps: [StateMigration] {
    let runs = self.runs
    return [
      .decoding(NotebookV1.self, from: 1) { old in
        runs.append(1)
        return NotebookV2(notes: old.notes.map { NotebookV2.Note(text: $0, isPinned: false) })
      },
      .json(from: 2) { state in
        runs.append(2)
        state["entries"] = state["notes"]
        state["notes"] = nil
        state["title"] = .string("Notes")
      },
    ]
  }

  private func persistence(
    migrations: [StateMigration]? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in }
  ) -> StatePersistence<Notebook> {
    StatePersistence(
      url: url, schemaVersion: 3, migrations: migrations ?? steps, interval: .seconds(10),
      scheduler: TestScheduler(initialClock: 0), onError: onError)
  }

  private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// Copies the fixture `name` to the state file and returns its bytes.
  @discardableResult
  private func install(_ name: String) throws -> Data {
    let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    try bytes.write(to: url)
    return bytes
  }

  private func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  private var expected: Notebook {
    Notebook(
      title: "Notes",
      entries: [
        Notebook.Entry(text: "Buy milk", isPinned: false),
        Notebook.Entry(text: "Call mom ✓", isPinned: false),
      ])
  }

  // MARK: - Fixtures

  func test_fixtures_areWhatTheOldVersionsWrote() throws {
    // given: what each earlier version of the model saves
    let written = try TemporaryDirectory()
    defer { written.remove() }
    func save<State: Codable & Sendable>(_ state: State, schema: Int, _ name: String) throws {
      let file = written.file(name)
      try StatePersistence<State>(url: file, schemaVersion: schema).save(state)
      let bytes = try Data(contentsOf: file)
      if ProcessInfo.processInfo.environment["WRITE_PERSISTENCE_FIXTURES"] == "1" {
        try bytes.write(to: Self.fixtures.appendingPathComponent(name))
      }
      // then: the committed file is that version's own output
      XCTAssertEqual(
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name)), bytes, name)
    }
    try save(NotebookV1(notes: ["Buy milk", "Call mom ✓"]), schema: 1, "notebook-v1.json")
    try save(
      NotebookV2(notes: [.init(text: "Buy milk", isPinned: true)]), schema: 2, "notebook-v2.json")
    try save(
      NotebookV4(title: "Later", entries: [], color: "blue"), schema: 4, "notebook-v4.json")
  }

  // MARK: - Migrating

  func test_migration_fromVersion1_runsEveryStepInOrderOnce_andSavesTheResult() throws {
    // given
    try install("notebook-v1.json")
    // when
    let restored = try persistence().restore(initialState: Notebook(title: "", entries: []))
    let again = try persistence().restore(initialState: Notebook(title: "", entries: []))
    // then
    XCTAssertEqual(restored.state, expected)
    XCTAssertEqual(restored.migratedFrom, 1)
    XCTAssertEqual(runs.all, [1, 2], "each step once, in order")
    XCTAssertEqual(again.state, expected)
    XCTAssertNil(again.migratedFrom, "the migrated state was saved: nothing runs again")
    XCTAssertEqual(try files(), ["notebook.json"], "the original's copy is removed once saved")
    let saved = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(saved.contains(#""schema":3"#), saved)
  }

  func test_migration_fromVersion2_runsOnlyTheLaterSteps() throws {
    // given
    try install("notebook-v2.json")
    // when
    let restored = try persistence().restore(initialState: Notebook(title: "", entries: []))
    // then
    XCTAssertEqual(
      restored.state,
      Notebook(title: "Notes", entries: [Notebook.Entry(text: "Buy milk", isPinned: true)]))
    XCTAssertEqual(restored.migratedFrom, 2)
    XCTAssertEqual(runs.all, [2])
  }

  func test_migration_whoseSaveFails_keepsTheOriginalAside_andTheStoreSavesItLater() throws {
    // given
    let original = try install("notebook-v1.json")
    let errors = LockedValues<PersistenceError>()
    let persistence = persistence(onError: { errors.append($0) })
    persistence.simulateFailureOfNextWrite(at: .beforeRename)
    // when
    let restored = try persistence.restore(initialState: Notebook(title: "", entries: []))
    // then: the migrated state is used, the file is still the original, and so is its copy
    XCTAssertEqual(restored.state, expected)
    XCTAssertEqual(try Data(contentsOf: url), original)
    let copies = try files().filter { $0.hasPrefix("notebook.json.schema-1-") }
    XCTAssertEqual(copies.count, 1)
    XCTAssertEqual(try Data(contentsOf: directory.file(copies[0])), original)
    guard case .writeFailed? = errors.all.first else {
      return XCTFail("no write failure reported: \(errors.all)")
    }
    // when: the store saves the state
    try persistence.save(restored.state)
    // then
    let saved = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(saved.contains(#""schema":3"#), saved)
  }

  // MARK: - Refusing

  func test_newerFile_isRefusedWhateverThePolicy_andNeverOverwritten() throws {
    // given
    let original = try install("notebook-v4.json")
    let persistence = persistence()
    // when
    var refusal: PersistenceError?
    do {
      _ = try persistence.restore(
        initialState: Notebook(title: "", entries: []), recovery: .startFresh)
    } catch {
      refusal = error
    }
    // then
    XCTAssertEqual(refusal, .newerSchema(path: url.path, found: 4, supported: 3))
    XCTAssertTrue(
      String(describing: refusal!).contains("schema version 4, newer than this app's 3"))
    // when: the app goes on anyway and saves
    XCTAssertThrowsError(try persistence.save(expected)) { error in
      XCTAssertEqual(error as? PersistenceError, refusal)
    }
    // then
    XCTAssertEqual(try Data(contentsOf: url), original)
    XCTAssertEqual(try files(), ["notebook.json"])
    XCTAssertEqual(runs.all, [])
  }

  func test_throwingMigration_leavesTheFile_andTheErrorNamesTheStep() throws {
    // given
    struct NoteTooLong: Error, CustomStringConvertible {
      var description: String { "a note is longer than 3 characters" }
    }
    let original = try install("notebook-v1.json")
    let persistence = persistence(migrations: [
      steps[0],
      .json(from: 2) { _ in throw NoteTooLong() },
    ])
    // when
    var failure: PersistenceError?
    do {
      _ = try persistence.restore(
        initialState: Notebook(title: "", entries: []), recovery: .startFresh)
    } catch {
      failure = error
    }
    // then
    XCTAssertEqual(
      failure,
      .migrationFailed(
        path: url.path, from: 2, to: 3, reason: "a note is longer than 3 characters"))
    XCTAssertTrue(
      String(describing: failure!).contains("from schema version 2 to 3"), "\(failure!)")
    XCTAssertEqual(try Data(contentsOf: url), original)
    XCTAssertEqual(try files(), ["notebook.json"], "nothing moved aside")
    XCTAssertThrowsError(try persistence.save(expected), "the file is not overwritten")
    XCTAssertEqual(try Data(contentsOf: url), original)
  }

  func test_migratedStateThatDoesNotDecode_failsTheLastStep() throws {
    // given: a last step that forgets the title
    try install("notebook-v2.json")
    let persistence = persistence(migrations: [
      steps[0], .json(from: 2) { state in state["entries"] = state["notes"] },
    ])
    // when / then
    XCTAssertThrowsError(try persistence.restore(initialState: Notebook(title: "", entries: []))) {
      error in
      guard case .migrationFailed(_, 2, 3, let reason)? = error as? PersistenceError else {
        return XCTFail("got \(error)")
      }
      XCTAssertTrue(reason.contains("does not decode as Notebook"), reason)
      XCTAssertTrue(reason.contains("title"), reason)
    }
  }

  func test_oldStepThatCannotReadTheFile_namesItsStepAndTheOldType() throws {
    // given: a version-1 file whose notes are not strings
    try install("notebook-v2.json")
    let text = try String(contentsOf: url, encoding: .utf8)
      .replacingOccurrences(of: #""schema":2"#, with: #""schema":1"#)
    try Data(text.utf8).write(to: url)
    // when / then
    XCTAssertThrowsError(try persistence().restore(initialState: Notebook(title: "", entries: [])))
    { error in
      guard case .migrationFailed(_, 1, 2, let reason)? = error as? PersistenceError else {
        return XCTFail("got \(error)")
      }
      XCTAssertTrue(reason.contains("does not decode as NotebookV1"), reason)
    }
  }

  func test_olderFileWithoutAStepForEachVersion_isIncompatibleAndMovedAside() throws {
    // given
    try install("notebook-v1.json")
    // when / then
    XCTAssertThrowsError(
      try persistence(migrations: [steps[1]]).restore(
        initialState: Notebook(title: "", entries: []))
    ) { error in
      let error = error as? PersistenceError
      XCTAssertEqual(
        error,
        .incompatibleSchema(path: url.path, found: 1, expected: 3, movedTo: error?.movedTo))
      XCTAssertNotNil(error?.movedTo)
    }
    XCTAssertEqual(runs.all, [])
  }

  // MARK: - JSON

  func test_json_subscriptsReadChangeAndRemove() throws {
    // given
    var json = try JSONDecoder().decode(
      StateMigration.JSON.self,
      from: Data(#"{"a":{"b":[1,2.5,"x",true,null]},"big":9007199254740993}"#.utf8))
    // when
    json["a"]?["b"]?[0] = .integer(7)
    json["a"]?["b"]?[4] = nil
    json["a"]?["c"] = .string("new")
    json["big"]?["not an object"] = .null
    // then
    XCTAssertEqual(json["a"]?["b"], .array([.integer(7), .number(2.5), .string("x"), .bool(true)]))
    XCTAssertEqual(json["a"]?["c"], .string("new"))
    XCTAssertEqual(json["big"], .integer(9_007_199_254_740_993), "integers stay exact")
    XCTAssertNil(json["a"]?["b"]?[9])
    XCTAssertNil(json["missing"])
  }
}
