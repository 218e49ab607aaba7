import ReactorKit
import ReactorKitInspector

/// A small app state for the inspector's tests, with a secret to redact.
struct NotesState: Equatable, Sendable {
  var count = 0
  var notes: [String] = []
  var session = Session()

  struct Session: Equatable, Sendable {
    var user = "ada"
    var token = "s3cr3t-token"
  }
}

enum NotesAction: Action, Codable, Equatable {
  case increment
  case add(String)
  case login(user: String, password: String)
}

extension NotesState {
  static var reducer: Reducer<NotesState> {
    Reducer<NotesState> { state, action in
      guard let action = action as? NotesAction else { return }
      switch action {
      case .increment: state.count += 1
      case .add(let note): state.notes.append(note)
      case .login(let user, _): state.session.user = user
      }
    }
  }
}

var notesRegistry: ActionRegistry {
  var registry = ActionRegistry()
  registry.register(NotesAction.self)
  return registry
}

/// An inspector with short timeouts, and a store it is installed in (recording and time travel).
func makeInspectedStore(
  capacity: Int = 10_000, limits: InspectorLimits = .testing
) throws -> (Inspector, Store<NotesState>) {
  let inspector = try Inspector(capacity: capacity, registry: notesRegistry, limits: limits)
  let store = Store(
    reducer: NotesState.reducer, state: NotesState(), plugins: [inspector.forStore()])
  return (inspector, store)
}

extension InspectorLimits {
  /// Short timeouts so tests of slow clients finish quickly.
  static var testing: InspectorLimits {
    InspectorLimits(
      maximumHeaderBytes: 4_096, maximumBodyBytes: 64 << 10, maximumConnections: 16,
      idleTimeout: .seconds(2), requestTimeout: .seconds(1), writeTimeout: .seconds(2),
      keepAliveInterval: .milliseconds(200))
  }
}
