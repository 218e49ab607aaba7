import ExampleSupport
import ReactorKit

/// The filter line and the numbered todos; the selected one is highlighted on a terminal.
public final class TodoListView: ReactorView {
  public var disposeBag = DisposeBag()
  /// Called when the view's content changes.
  public var onChange: (() -> Void)?
  /// The latest alert from the reactor, until ``clearAlert()``.
  public private(set) var alert: String?

  public init() {}

  public func bind(reactor: TodoListReactor) {
    reactor.state
      .subscribe(with: self, onNext: { view, _ in view.onChange?() })
      .disposed(by: disposeBag)
    reactor.pulse(\.$alertMessage)
      .compactMap { $0 }
      .subscribe(with: self, onNext: { view, message in view.alert = message })
      .disposed(by: disposeBag)
  }

  public func clearAlert() {
    alert = nil
  }

  /// The list, at most `maxRows` todo lines (scrolled to keep the selection visible).
  public func render(_ context: RenderContext, maxRows: Int) -> [String] {
    guard let state = reactor?.currentState else { return [] }
    let style = context.style
    let filters = TodoFilter.allCases.map { filter in
      filter == state.filter ? style.bold("[\(filter.rawValue)]") : style.dim(filter.rawValue)
    }
    var lines = ["filter: " + filters.joined(separator: " ")]
    let visible = state.visibleTodos
    guard !visible.isEmpty else {
      let hint = state.todos.isEmpty ? "no todos yet: add one" : "no \(state.filter.rawValue) todos"
      return lines + [style.dim("  (\(hint))")]
    }
    let room = max(1, maxRows)
    let first = min(max(0, state.selectedRow - room / 2), max(0, visible.count - room))
    for (row, todo) in visible.enumerated().dropFirst(first).prefix(room) {
      let box = todo.isDone ? style.color(.green, "[x]") : "[ ]"
      var title = todo.isDone ? style.dim(todo.title) : todo.title
      if context.isInteractive && row == state.selectedRow { title = style.inverse(todo.title) }
      lines.append("\(String(row + 1).leftPadded(to: 3)). \(box) \(title)")
    }
    return lines
  }
}
