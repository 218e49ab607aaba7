import Foundation
import ReactorKit
import ReactorKitTesting

/// A signed-in account with a secret.
struct DemoAccount: Codable, Equatable, Sendable {
  var name: String
  var token: String
}

struct DemoTodo: Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var isDone = false
}

enum DemoFilter: String, Codable, Equatable, Sendable {
  case all, active, done
}

/// The app state of the plugin tests: nested structs, an optional, an array, an enum, a set
/// and a dictionary, so diffs and renderings cover each shape.
struct DemoState: Codable, Equatable, Sendable {
  var account: DemoAccount?
  var todos: [DemoTodo] = []
  var filter: DemoFilter = .all
  var tags: Set<String> = []
  var counters: [String: Int] = [:]
  var nextID = 1
}

enum DemoAction: Action, Codable, Equatable, Sendable {
  case logIn(name: String, password: String)
  case logOut
  case add(String)
  case toggle(id: Int)
  case remove(id: Int)
  case setFilter(DemoFilter)
  case tag(String)
  case count(String)
}

/// A second registered action type.
struct DemoRename: Action, Codable, Equatable, Sendable {
  var id: Int
  var title: String
}

/// An action type that is deliberately not registered.
struct DemoUnregistered: Action, Codable, Equatable, Sendable {
  var value = 0
}

extension DemoState {
  static var reducer: Reducer<DemoState> {
    Reducer { state, action in
      switch action {
      case DemoAction.logIn(let name, let password):
        state.account = DemoAccount(name: name, token: "tok-\(name)-\(password.count)")
      case DemoAction.logOut:
        state.account = nil
      case DemoAction.add(let title):
        state.todos.append(DemoTodo(id: state.nextID, title: title))
        state.nextID += 1
      case DemoAction.toggle(let id):
        if let index = state.todos.firstIndex(where: { $0.id == id }) {
          state.todos[index].isDone.toggle()
        }
      case DemoAction.remove(let id):
        state.todos.removeAll { $0.id == id }
      case DemoAction.setFilter(let filter):
        state.filter = filter
      case DemoAction.tag(let tag):
        if state.tags.contains(tag) { state.tags.remove(tag) } else { state.tags.insert(tag) }
      case DemoAction.count(let key):
        state.counters[key, default: 0] += 1
      case let rename as DemoRename:
        if let index = state.todos.firstIndex(where: { $0.id == rename.id }) {
          state.todos[index].title = rename.title
        }
      default:
        break
      }
    }
  }

  /// A registry of the demo actions.
  static var registry: ActionRegistry {
    var registry = ActionRegistry()
    registry.register(DemoAction.self)
    registry.register(DemoRename.self)
    return registry
  }
}

/// A random action for property tests; ids refer to todos that may or may not exist.
func randomDemoAction(using generator: inout SeededRandomNumberGenerator) -> any Action {
  let titles = ["milk", "eggs", "bread", "tea", "\"quoted\"", "naïve ✓", "a\nb"]
  let id = Int.random(in: 1...12, using: &generator)
  switch Int.random(in: 0..<10, using: &generator) {
  case 0: return DemoAction.logIn(name: titles.randomElement(using: &generator)!, password: "pw")
  case 1: return DemoAction.logOut
  case 2, 3: return DemoAction.add(titles.randomElement(using: &generator)!)
  case 4: return DemoAction.toggle(id: id)
  case 5: return DemoAction.remove(id: id)
  case 6: return DemoAction.setFilter([.all, .active, .done].randomElement(using: &generator)!)
  case 7: return DemoAction.tag(titles.randomElement(using: &generator)!)
  case 8: return DemoAction.count(titles.randomElement(using: &generator)!)
  default: return DemoRename(id: id, title: titles.randomElement(using: &generator)!)
  }
}

/// Collects what a sink receives, from any thread.
final class LinesBox: @unchecked Sendable {
  // Safety: `lines` and `events` are only touched with `lock` held.
  private let lock = NSLock()
  private var storedLines: [String] = []
  private var storedEvents: [LogEvent] = []

  var lines: [String] { lock.withLock { storedLines } }
  var events: [LogEvent] { lock.withLock { storedEvents } }

  func append(_ event: LogEvent, format: LogFormat) {
    lock.withLock {
      storedEvents.append(event)
      storedLines.append(event.formatted(as: format))
    }
  }

  func sink(format: LogFormat = .text) -> LogSink {
    LogSink { [self] event in append(event, format: format) }
  }
}
