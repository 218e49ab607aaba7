import ExampleSupport
import Foundation
import ReactorKit
import ReactorKitInspector
import TodosKit

let usage = """
  Usage: Todos [--state PATH] [--log PATH] [--record PATH] [--inspect]

  A todo list in the terminal, built with ReactorKit: one app-wide Store (session,
  settings, todos) and a reactor per feature, with undo/redo, a log and a saved state.
  Interactive on a terminal (arrow keys, space, a/e/d, u/r, ? for help); otherwise reads
  commands from standard input (add TITLE, toggle N, edit N TITLE, delete N,
  filter all|active|done, clear, undo, redo, login NAME, logout, help, quit) and prints
  the screen after each.

    --state PATH   where the todos are saved and restored (default ./todos.json)
    --log PATH     where actions, mutations and state changes are logged (default ./todos.log)
    --record PATH  keep a flight recording of the last 1,000 actions, each with a checkpoint
                   of the state it produced, and write it to PATH on exit: a test replays it
                   with TestStore.replay (see the Testing guide)
    --inspect      serve the browser inspector on 127.0.0.1 (its address goes to standard
                   error) and keep running after a script ends, until quit or Ctrl-C

  """

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("Todos: \(message)\n".utf8))
  exit(status)
}

var arguments = Arguments()
if arguments.flag("--help") || arguments.flag("-h") {
  print(usage, terminator: "")
  exit(0)
}
let inspects = arguments.flag("--inspect")
let stateURL: URL
let logURL: URL
let recordURL: URL?
do {
  stateURL = URL(fileURLWithPath: try arguments.option("--state") ?? "todos.json")
  logURL = URL(fileURLWithPath: try arguments.option("--log") ?? "todos.log")
  recordURL = try arguments.option("--record").map { URL(fileURLWithPath: $0) }
  try arguments.finish()
} catch {
  fail("\(error)\n\n\(usage)", status: 2)
}

// The composition root: plugins, the one store and its services, the screen's reactors.
let logger: LoggingPlugin
do {
  logger = LoggingPlugin(sink: try .file(logURL, format: .text))
} catch {
  fail("\(error)", status: 1)
}
// Files of earlier versions of the app are migrated on restore (AppState.migrations).
let persistence = StatePersistence<AppState>(
  url: stateURL, schemaVersion: AppState.schemaVersion, migrations: AppState.migrations,
  onError: { error in logger.log(source: "persistence", kind: .state, description: "\(error)") })
let restored: RestoredState<AppState>
do {
  // A bad file is moved aside (never overwritten) and the app starts with an empty list.
  restored = try persistence.restore(initialState: AppState(), recovery: .startFresh)
} catch {
  fail("\(error)", status: 1)
}
var notice: String?
if case .recovered(let error) = restored.origin {
  notice = "\(error) Starting with an empty list."
}

// With --inspect, a browser page watches the store and the reactors and can time travel.
func makeInspector() -> Inspector {
  do {
    let inspector = try Inspector(registry: AppState.actionRegistry)
    FileHandle.standardError.write(Data("Inspector: \(inspector.url)\n".utf8))
    return inspector
  } catch {
    fail("\(error)", status: 1)
  }
}
let inspector = inspects ? makeInspector() : nil
// With --record, a flight recorder keeps the last actions for a bug report.
let flight = recordURL.map { _ in FlightRecorder<AppState>(registry: AppState.actionRegistry) }
// One list of plugins for the store (the provider adds the todos' undo history first), one for
// every reactor; an absent inspector installs nothing.
let provider = ServiceProvider(
  state: restored.state,
  plugins: [logger.forStore(), persistence, flight?.forStore(), inspector?.forStore()])
let screen = TodosScreen(provider: provider, reactorPlugins: [logger, inspector], notice: notice)
TerminalRunner(
  screen: screen, keepsRunningAfterInput: inspects,
  onExit: {
    do {
      try provider.store.flushPlugins()  // the state file and the log
    } catch {
      FileHandle.standardError.write(Data("Todos: \(error)\n".utf8))
    }
    if let flight, let recordURL {
      do {
        try flight.export(to: recordURL)
      } catch {
        FileHandle.standardError.write(Data("Todos: \(error)\n".utf8))
      }
    }
  }
).run()
