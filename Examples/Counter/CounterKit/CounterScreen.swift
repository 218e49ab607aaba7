import ExampleSupport
import ReactorKit

/// The counter's terminal view: renders a ``CounterReactor`` and turns keys and script
/// commands into its actions.
public final class CounterScreen: ReactorView, TerminalScreen {
  public var disposeBag = DisposeBag()
  public var onChange: (() -> Void)?
  /// The latest alert, shown until the next input.
  public private(set) var alert: String?
  private var message: [String] = []
  private var showsHelp = false

  public init() {}

  public func bind(reactor: CounterReactor) {
    reactor.state
      .subscribe(onNext: { [weak self] _ in self?.onChange?() })
      .disposed(by: disposeBag)
    reactor.pulse(\.$alertMessage)
      .compactMap { $0 }
      .subscribe(onNext: { [weak self] message in
        self?.alert = message
        self?.onChange?()
      })
      .disposed(by: disposeBag)
  }

  public var isIdle: Bool { reactor?.currentState.isLoading != true }

  public func render(_ context: RenderContext) -> [String] {
    guard let reactor else { return [] }
    let style = context.style
    let state = reactor.currentState
    var lines = [
      style.bold("Counter")
        + style.dim("  (\(reactor.range.lowerBound)…\(reactor.range.upperBound))")
    ]
    let loading = state.isLoading ? "  " + style.color(.yellow, "(loading…)") : ""
    lines.append("value: " + style.bold("\(state.value)") + loading)
    if let alert { lines.append(style.color(.red, "alert: \(alert)")) }
    lines += message
    if context.isInteractive {
      lines.append("")
      lines.append(style.dim("+ / ↑  increase    - / ↓  decrease    ?  help    q  quit"))
      if showsHelp { lines += Self.help.map { style.dim($0) } }
    }
    return lines
  }

  public func perform(_ command: ScriptCommand) -> ScreenOutcome {
    clearMessages()
    switch command.name {
    case "increase", "inc", "+":
      reactor?.send(.increase)
    case "decrease", "dec", "-":
      reactor?.send(.decrease)
    case "help":
      message = Self.help
    default:
      message = ["Unknown command '\(command.name)'. Type help for the list."]
    }
    return .continue
  }

  public func handle(_ key: Key) -> ScreenOutcome {
    clearMessages()
    switch key {
    case .character("+"), .character("="), .up, .right:
      reactor?.send(.increase)
    case .character("-"), .character("_"), .down, .left:
      reactor?.send(.decrease)
    case .character("?"):
      showsHelp.toggle()
    case .character("q"), .escape:
      return .quit
    default:
      break
    }
    return .continue
  }

  private func clearMessages() {
    alert = nil
    message = []
  }

  private static let help = [
    "Commands:",
    "  increase (inc, +)   add one after a short delay",
    "  decrease (dec, -)   subtract one after a short delay",
    "  help                this list",
    "  quit                leave",
  ]
}
