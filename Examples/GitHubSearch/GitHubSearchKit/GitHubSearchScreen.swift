import ExampleSupport
import ReactorKit

/// The search's terminal view: a search field, the results and a status line.
///
/// Typing updates the query (debounced by the reactor); the arrow keys move through the
/// results and moving past the last one loads the next page.
public final class GitHubSearchScreen: ReactorView, TerminalScreen {
  public var disposeBag = DisposeBag()
  public var onChange: (() -> Void)?
  private let source: String
  private var field = LineEditor()
  private var selection = 0
  private var error: String?
  private var message: [String] = []
  private var showsHelp = false

  /// Creates the screen; `source` names where results come from, for the title.
  public init(source: String) {
    self.source = source
  }

  public func bind(reactor: GitHubSearchReactor) {
    reactor.state
      .subscribe(onNext: { [weak self] _ in self?.onChange?() })
      .disposed(by: disposeBag)
    reactor.pulse(\.$errorMessage)
      .compactMap { $0 }
      .subscribe(onNext: { [weak self] message in
        self?.error = message
        self?.onChange?()
      })
      .disposed(by: disposeBag)
  }

  public var isIdle: Bool {
    guard let state = reactor?.currentState else { return true }
    return !state.isSearching && !state.isLoadingNextPage
  }

  // MARK: - Rendering

  public func render(_ context: RenderContext) -> [String] {
    guard let state = reactor?.currentState else { return [] }
    let style = context.style
    var lines = [style.bold("GitHub Search") + style.dim(" · \(source)")]
    let field = context.isInteractive ? self.field.rendered(style) : state.query
    lines.append("search: " + field)
    lines.append(status(state, style))
    if let error { lines.append(style.color(.red, "error: \(error)")) }
    lines += message

    var rows = state.repositories.enumerated().map { index, repository in
      row(index, repository, selected: context.isInteractive && index == selection, style)
    }
    if context.isInteractive {
      var footer = [""]
      footer.append(
        style.dim("type to search · ↑/↓ move · ↓ at the end loads more · enter details · esc quit"))
      if showsHelp { footer += Self.help.map { style.dim($0) } }
      let room = max(1, context.size.rows - lines.count - footer.count)
      let first = min(max(0, selection - room / 2), max(0, rows.count - room))
      rows = Array(rows.dropFirst(first).prefix(room))
      return lines + rows + footer
    }
    return lines + rows
  }

  private func status(_ state: GitHubSearchReactor.State, _ style: TextStyle) -> String {
    var parts: [String] = []
    if state.resultsQuery.isEmpty {
      parts.append("type a query to search repositories")
    } else {
      let count = state.totalCount == 1 ? "1 repository" : "\(state.totalCount) repositories"
      parts.append("\(count) for \"\(state.resultsQuery)\"")
      if state.totalCount > 0 { parts.append("showing \(state.repositories.count)") }
      if state.nextPage != nil && !state.isLoadingNextPage {
        parts.append("more available")
      } else if state.nextPage == nil && state.totalCount > 0 {
        parts.append("end of results")
      }
    }
    if state.isSearching { parts.append(style.color(.yellow, "searching…")) }
    if state.isLoadingNextPage { parts.append(style.color(.yellow, "loading more…")) }
    return parts.joined(separator: " · ")
  }

  private func row(_ index: Int, _ repository: Repository, selected: Bool, _ style: TextStyle)
    -> String
  {
    let number = String(index + 1).leftPadded(to: 4)
    let name = selected ? style.inverse(repository.fullName) : style.bold(repository.fullName)
    var line = "\(number). \(name)  ★ \(Self.format(stars: repository.stars))"
    if let language = repository.language { line += "  " + style.color(.cyan, language) }
    if let description = repository.description { line += style.dim("  — \(description)") }
    return line
  }

  /// `1234` as `1.2k`, smaller numbers as they are.
  static func format(stars: Int) -> String {
    guard stars >= 1000 else { return String(stars) }
    let tenths = (stars + 50) / 100
    return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
  }

  // MARK: - Input

  public func perform(_ command: ScriptCommand) -> ScreenOutcome {
    clearMessages()
    switch command.name {
    case "search", "query", "s":
      field = LineEditor(text: command.argument)
      send(.updateQuery(field.text))
    case "type":
      // Types the argument one character at a time, as a person would.
      for character in command.argument {
        field.handle(.character(character))
        send(.updateQuery(field.text))
      }
    case "clear":
      field = LineEditor()
      send(.updateQuery(""))
    case "next", "more":
      send(.loadNextPage)
    case "show", "open":
      showDetails(ofRow: Int(command.argument).map { $0 - 1 })
    case "help":
      message = Self.help
    default:
      message = ["Unknown command '\(command.name)'. Type help for the list."]
    }
    return .continue
  }

  public func handle(_ key: Key) -> ScreenOutcome {
    clearMessages()
    let count = reactor?.currentState.repositories.count ?? 0
    switch key {
    case .escape:
      return .quit
    case .up:
      selection = max(0, selection - 1)
    case .down:
      if selection + 1 < count { selection += 1 }
      if selection + 1 >= count { send(.loadNextPage) }
    case .pageDown, .control("n"):
      send(.loadNextPage)
    case .enter:
      showDetails(ofRow: selection)
    case .character("?") where field.text.isEmpty:
      showsHelp.toggle()
    default:
      let before = field.text
      field.handle(key)
      if field.text != before {
        selection = 0
        send(.updateQuery(field.text))
      }
    }
    return .continue
  }

  private func send(_ action: GitHubSearchReactor.Action) {
    reactor?.send(action)
  }

  private func showDetails(ofRow index: Int?) {
    let repositories = reactor?.currentState.repositories ?? []
    guard let index, repositories.indices.contains(index) else {
      message = ["No result with that number."]
      return
    }
    let repository = repositories[index]
    message = [
      "\(repository.fullName) · ★ \(repository.stars) · \(repository.language ?? "no language")",
      repository.htmlURL,
    ]
  }

  private func clearMessages() {
    error = nil
    message = []
  }

  private static let help = [
    "Commands:",
    "  search TEXT   replace the query (debounced, like typing)",
    "  type TEXT     type TEXT into the field one key at a time",
    "  clear         empty the field",
    "  next          load the next page of results",
    "  show N        details of result N",
    "  help          this list",
    "  quit          leave",
  ]
}
