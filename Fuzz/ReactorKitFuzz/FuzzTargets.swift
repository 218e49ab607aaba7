import Foundation
import ReactorKit
import ReactorKitInspector

/// The untrusted-input parsers under coverage-guided fuzzing. Each check returns normally for
/// any input and stops the process (`preconditionFailure`) when a property breaks, so libFuzzer
/// saves the input that broke it.
enum FuzzTarget: String, CaseIterable {
  /// The inspector's HTTP/1.x request parser (bytes from any local process).
  case http
  /// `ActionRecording(jsonLines:)`, the loader of recordings (files and `/api/import` bodies),
  /// and `ReactorRecording(jsonLines:)`, the loader of reactors' recordings.
  case recording

  func check(_ bytes: [UInt8]) {
    switch self {
    case .http: HTTPParserProperties.check(bytes)
    case .recording:
      RecordingProperties.check(bytes)
      RecordingProperties.checkAsReactorRecording(bytes)
    }
  }
}

/// What the request parser must hold for any bytes: no crash, an outcome within its bounds,
/// and the same answer whether the bytes arrive at once or cut at any point; and what the
/// server answers a parsed request with (with and without the token) holds only the header
/// lines it means to write.
enum HTTPParserProperties {
  static let parser = HTTPRequestParser(
    maximumHeaderBytes: 1_024, maximumHeaderCount: 16, maximumBodyBytes: 1_024)

  static func check(_ bytes: [UInt8]) {
    let whole = parser.parse(bytes)
    switch whole {
    case .request(let request, let consumed):
      precondition(
        consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
      precondition(request.target.hasPrefix("/"), "target \(request.target)")
      precondition(request.body.count <= 1_024, "body of \(request.body.count) bytes")
      // The request's own bytes parse to the same request (what follows is the next one).
      precondition(parser.parse(Array(bytes[..<consumed])) == whole, "not self-delimiting")
      ResponseProperties.check(request)
    case .incomplete:
      precondition(bytes.count <= 1_028 + 1_024, "\(bytes.count) bytes pending past the limits")
    case .failure(let status, _):
      precondition([400, 413, 431, 501, 505].contains(status), "status \(status)")
    }
    // A read that stops early: the bytes so far are incomplete, or already give the answer
    // the whole buffer gives (never a different request, never an error the rest undoes).
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let partial = parser.parse(Array(bytes[..<cut]))
    switch (partial, whole) {
    case (.incomplete, _): break
    case (.request, .request): precondition(partial == whole, "a cut changed the request")
    case (.failure(let early, _), .failure(let late, _)):
      precondition(early == late, "a cut changed the status from \(late) to \(early)")
    default: preconditionFailure("cut at \(cut): \(partial), whole: \(whole)")
    }
  }
}

/// What the server writes in answer to any request: a status line, then only header lines it
/// means to write (names from ``ResponseProbe/headerNames``, each once, no CR, LF or NUL but
/// the line ends), then the blank line; a download's file name from the safe alphabet.
enum ResponseProperties {
  static let probe = ResponseProbe(registry: RecordingProperties.registry)

  static func check(_ request: HTTPRequest) {
    for authorize in [false, true] {
      let bytes = probe.response(to: request, authorize: authorize)
      guard let end = headEnd(bytes) else { preconditionFailure("no end of the head") }
      let head = bytes[..<end]
      precondition(!head.contains(0), "a NUL in the head")
      let lines = split(head)
      precondition(
        lines.allSatisfy { !$0.contains(13) && !$0.contains(10) },
        "a bare CR or LF in the head")
      let status = String(decoding: lines[0], as: UTF8.self)
      precondition(status.hasPrefix("HTTP/1.1 ") && status.count >= 12, "status line \(status)")
      var seen: Set<String> = []
      for line in lines.dropFirst() {
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { preconditionFailure("line \(text)") }
        let name = text[..<colon].lowercased()
        precondition(ResponseProbe.headerNames.contains(name), "an unexpected header: \(text)")
        precondition(seen.insert(name).inserted, "a repeated header: \(text)")
        if name == "content-disposition" { checkDisposition(text) }
      }
    }
  }

  private static func checkDisposition(_ line: String) {
    let parts = line.components(separatedBy: "; ")
    precondition(parts.count == 3, "content-disposition: \(line)")
    let fallback = parts[1].dropFirst(#"filename=""#.count).dropLast()
    precondition(fallback.utf8.allSatisfy(isSafe), "an unsafe file name: \(line)")
  }

  private static func isSafe(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  /// The index of the blank line's CR LF CR LF.
  private static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index
    }
    return nil
  }

  /// The head's lines, split at CR LF.
  private static func split(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = head.startIndex
    var index = head.startIndex
    while index < head.endIndex {
      if head[index] == 13, index + 1 < head.endIndex, head[index + 1] == 10 {
        lines.append(head[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    lines.append(head[start..<head.endIndex])
    return lines
  }
}

/// A reactor whose mutations are ``FuzzAction``s, for the reactor recording loader.
final class FuzzReactor: Reactor {
  typealias Action = Int
  typealias Mutation = FuzzAction
  typealias State = FuzzAction

  let initialState = FuzzAction(name: "", count: 0, ratio: nil, tags: [], child: [])

  func mutate(action: Int) -> Observable<FuzzAction> { .empty() }
}

/// An action with nesting, optionals and numbers, for the recording loader to decode.
struct FuzzAction: Action, Codable, Equatable {
  var name: String
  var count: Int
  var ratio: Double?
  var tags: [String]
  var child: [FuzzAction]
}

/// What the recording loader must hold for any bytes: no crash, a typed error or a recording,
/// a recording that writes back to lines that load to the same actions, and a replay (history
/// commands with any counts included) into a store with a ``StateHistory`` that never stops
/// the process and leaves the history at an entry it keeps.
enum RecordingProperties {
  static let registry: ActionRegistry = {
    var registry = ActionRegistry()
    registry.register(FuzzAction.self)
    registry.register(HistoryAction.self)
    return registry
  }()
  static let limits = LoadingLimits(maximumFileSize: 64 * 1024, maximumNestingDepth: 16)

  static func check(_ bytes: [UInt8]) {
    let recording: ActionRecording
    do {
      recording = try ActionRecording(jsonLines: bytes, registry: registry, limits: limits)
    } catch {
      return  // a typed `RecordingError`: the input is refused, with its reason
    }
    let written: [UInt8]
    do {
      written = try recording.jsonLines(registry: registry, limits: limits)
    } catch {
      // Only a recording that would not load back may be refused on writing.
      guard case .unreplayable = error else { preconditionFailure("writing failed: \(error)") }
      return
    }
    do {
      let reloaded = try ActionRecording(jsonLines: written, registry: registry, limits: limits)
      let before = recording.actions.map { $0 as? FuzzAction }
      let after = reloaded.actions.map { $0 as? FuzzAction }
      precondition(before == after, "the written recording loads different actions")
      let beforeHistory = recording.actions.map { $0 as? HistoryAction }
      let afterHistory = reloaded.actions.map { $0 as? HistoryAction }
      precondition(beforeHistory == afterHistory, "the written recording loads other commands")
    } catch {
      preconditionFailure("a written recording does not load: \(error)")
    }
    checkReplay(recording)
  }

  /// The same bytes as a reactor's recording (`ReactorRecording`, the format of a
  /// `ReactorFlightRecorder`'s export): a typed error or a recording that writes back to
  /// lines that load to the same events.
  static func checkAsReactorRecording(_ bytes: [UInt8]) {
    let recording: ReactorRecording<FuzzReactor>
    do {
      recording = try ReactorRecording(jsonLines: bytes, limits: limits)
    } catch {
      return  // a typed `RecordingError`
    }
    let written: [UInt8]
    do {
      written = try recording.jsonLines(limits: limits)
    } catch {
      guard case .unreplayable = error else { preconditionFailure("writing failed: \(error)") }
      return
    }
    do {
      let reloaded = try ReactorRecording<FuzzReactor>(jsonLines: written, limits: limits)
      precondition(
        reloaded.mutations == recording.mutations, "the written recording loads other mutations")
      precondition(
        reloaded.events.count == recording.events.count, "the written recording loses events")
      precondition(reloaded.startState == recording.startState, "another start state")
    } catch {
      preconditionFailure("a written reactor recording does not load: \(error)")
    }
  }

  /// Replays `recording` into a store whose state is the sum of the counts, with a small
  /// history: any command count must stop at the ends of the history.
  private static func checkReplay(_ recording: ActionRecording) {
    let history = StateHistory<Int>(capacity: 8)
    let store = Store(
      reducer: Reducer<Int> { state, action in
        if let action = action as? FuzzAction { state &+= action.count }
      }, state: 0, plugins: [history])
    // A header naming another state type is refused before any action: nothing to check.
    guard (try? recording.replay(into: store)) != nil else { return }
    let (count, index) = (history.count, history.currentIndex)
    precondition(count <= 8 && (count == 0 ? index == 0 : (0..<count).contains(index)))
    if count > 0 {
      precondition(store.currentState == history.states[index], "the state is not the entry's")
    }
  }
}
