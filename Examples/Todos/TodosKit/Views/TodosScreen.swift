import ExampleSupport
import ReactorKit

/// The Todos app's terminal screen: a title line with the session, the filtered list,
/// statistics, alerts, and an input line for adding, editing, signing in or typing a
/// command.
///
/// Each part is a small ``ReactorView`` bound to its own reactor; every reactor is created
/// with the one ``ServiceProviderType`` and meets the others only through the store.
public final class TodosScreen: TerminalScreen {
  public var onChange: (() -> Void)?
  private let provider: ServiceProviderType
  private let reactorPlugins: [any ReactorPlugin]
  private let sessionView = SessionView()
  private let listView = TodoListView()
  private let statsView = StatsView()
  private var editorView: TodoEditorView?
  private var prompt: Prompt?
  private var message: [String] = []
  private var showsHelp = false

  /// A one-line input other than the editor.
  private struct Prompt {
    enum Kind {
      case command
      case logIn
    }

    var kind: Kind
    var field = LineEditor()
  }

  /// Creates the screen and its reactors, all from `provider`.
  ///
  /// - Parameters:
  ///   - provider: The app's one service provider.
  ///   - reactorPlugins: Installed on every reactor the screen creates (a logger, an
  ///     inspector).
  ///   - notice: A message to show until the first input, such as a startup warning.
  public init(
    provider: ServiceProviderType, reactorPlugins: [any ReactorPlugin] = [],
    notice: String? = nil
  ) {
    self.provider = provider
    self.reactorPlugins = reactorPlugins
    message = notice.map { [$0] } ?? []
    sessionView.reactor = logged(SessionReactor(provider: provider))
    listView.reactor = logged(TodoListReactor(provider: provider))
    statsView.reactor = logged(StatsReactor(provider: provider))
    let changed: () -> Void = { [weak self] in self?.onChange?() }
    sessionView.onChange = changed
    listView.onChange = changed
    statsView.onChange = changed
  }

  /// Every command runs synchronously through the store, so the screen is always idle.
  public var isIdle: Bool { true }

  /// `reactor`, with the screen's reactor plugins installed.
  private func logged<R: Reactor>(_ reactor: R) -> R {
    reactor.install(reactorPlugins)
    return reactor
  }

  // MARK: - Rendering

  public func render(_ context: RenderContext) -> [String] {
    let style = context.style
    var footer = statsView.render(context)
    for alert in [sessionView.alert, listView.alert].compactMap({ $0 }) {
      footer.append(style.color(.red, alert))
    }
    footer += message
    if let editorView { footer += editorView.render(context) }
    if let prompt {
      let label = prompt.kind == .command ? ":" : "log in as: "
      footer.append(style.bold(label) + prompt.field.rendered(style))
    }
    if context.isInteractive {
      let history = provider.historyService
      footer.append(style.dim("undo: \(history.undoCount) · redo: \(history.redoCount)"))
      footer.append("")
      footer += Self.keyHints.map { style.dim($0) }
      if showsHelp { footer += Self.help.map { style.dim($0) } }
    }
    let header = sessionView.render(context)
    let room =
      context.size.rows == .max ? .max : context.size.rows - header.count - footer.count - 1
    return header + listView.render(context, maxRows: room) + footer
  }

  // MARK: - Scripted commands

  public func perform(_ command: ScriptCommand) -> ScreenOutcome {
    clearMessages()
    let (first, rest) = command.splitArgument
    switch command.name {
    case "add", "new":
      runEditor(.add, title: command.argument)
    case "edit":
      guard let row = row(first, for: command.name) else { break }
      guard let todo = listView.reactor?.currentState.visibleTodos[safe: row] else {
        message = ["There is no todo #\(first) in this list."]
        break
      }
      runEditor(.edit(todo), title: rest)
    case "toggle", "done", "x":
      if let row = row(first, for: command.name) {
        listView.reactor?.send(.toggle(row: row))
      }
    case "delete", "rm":
      if let row = row(first, for: command.name) {
        listView.reactor?.send(.delete(row: row))
      }
    case "clear":
      listView.reactor?.send(.deleteDone)
    case "filter":
      if let filter = TodoFilter(rawValue: command.argument.lowercased()) {
        listView.reactor?.send(.setFilter(filter))
      } else {
        message = ["filter takes one of: all, active, done."]
      }
    case "login":
      sessionView.reactor?.send(.logIn(name: command.argument))
    case "logout":
      sessionView.reactor?.send(.logOut)
    case "undo":
      listView.reactor?.send(.undo)
    case "redo":
      listView.reactor?.send(.redo)
    case "list", "show":
      break
    case "help":
      message = Self.help
    default:
      message = ["Unknown command '\(command.name)'. Type help for the list."]
    }
    return .continue
  }

  private func row(_ text: String, for command: String) -> Int? {
    guard let number = Int(text), number >= 1 else {
      message = ["\(command) needs a todo number, as in '\(command) 1'."]
      return nil
    }
    return number - 1
  }

  private func runEditor(_ mode: TodoEditorReactor.Mode, title: String) {
    let editor = logged(TodoEditorReactor(provider: provider, mode: mode))
    editor.send(.updateTitle(title))
    editor.send(.submit)
    if let failure = editor.currentState.validationMessage { message = [failure] }
  }

  // MARK: - Keys

  public func handle(_ key: Key) -> ScreenOutcome {
    clearMessages()
    if let editorView {
      editorView.handle(key)
      if editorView.isDismissed { self.editorView = nil }
      return .continue
    }
    if let prompt {
      handlePromptKey(key, prompt)
      return .continue
    }
    guard let list = listView.reactor else { return .continue }
    let selected = list.currentState.visibleTodos[safe: list.currentState.selectedRow]
    switch key {
    case .up, .character("k"):
      list.send(.moveSelection(by: -1))
    case .down, .character("j"):
      list.send(.moveSelection(by: 1))
    case .character(" "), .character("x"), .enter:
      list.send(.toggle(row: list.currentState.selectedRow))
    case .character("d"), .delete, .backspace:
      list.send(.delete(row: list.currentState.selectedRow))
    case .character("a"):
      openEditor(.add)
    case .character("e"):
      if let selected { openEditor(.edit(selected)) }
    case .character("f"), .tab:
      list.send(.cycleFilter)
    case .character("c"):
      list.send(.deleteDone)
    case .character("u"):
      list.send(.undo)
    case .character("r"):
      list.send(.redo)
    case .character("l"):
      prompt = Prompt(kind: .logIn)
    case .character("o"):
      sessionView.reactor?.send(.logOut)
    case .character(":"):
      prompt = Prompt(kind: .command)
    case .character("?"):
      showsHelp.toggle()
    case .character("q"), .escape:
      return .quit
    default:
      break
    }
    return .continue
  }

  private func handlePromptKey(_ key: Key, _ current: Prompt) {
    switch key {
    case .escape:
      prompt = nil
    case .enter:
      prompt = nil
      switch current.kind {
      case .logIn:
        sessionView.reactor?.send(.logIn(name: current.field.text))
      case .command:
        if let command = ScriptCommand(current.field.text) { _ = perform(command) }
      }
    default:
      prompt?.field.handle(key)
    }
  }

  private func openEditor(_ mode: TodoEditorReactor.Mode) {
    let view = TodoEditorView()
    view.onChange = { [weak self] in self?.onChange?() }
    view.reactor = logged(TodoEditorReactor(provider: provider, mode: mode))
    editorView = view
  }

  private func clearMessages() {
    message = []
    sessionView.clearAlert()
    listView.clearAlert()
  }

  private static let keyHints = [
    "↑/↓ move · space toggle · a add · e edit · d delete · f filter · c clear done",
    "u undo · r redo · l log in · o log out · : command · ? help · q quit",
  ]

  private static let help = [
    "Commands:",
    "  add TITLE         add a todo",
    "  toggle N          mark todo N done or not done",
    "  edit N TITLE      rename todo N",
    "  delete N          delete todo N",
    "  clear             delete the done todos",
    "  filter all|active|done",
    "  undo / redo       undo or redo the last change to the todos",
    "  login NAME / logout",
    "  help / quit",
  ]
}
