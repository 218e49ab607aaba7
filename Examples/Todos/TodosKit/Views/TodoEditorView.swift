import ExampleSupport
import ReactorKit

/// An input line that edits a todo's title; Enter saves, Escape cancels.
public final class TodoEditorView: ReactorView {
  public var disposeBag = DisposeBag()
  /// Called when the view's content changes.
  public var onChange: (() -> Void)?
  private var field = LineEditor()

  public init() {}

  public func bind(reactor: TodoEditorReactor) {
    field = LineEditor(text: reactor.currentState.title)
    reactor.state
      .subscribe(with: self, onNext: { view, _ in view.onChange?() })
      .disposed(by: disposeBag)
  }

  /// Whether the editor is finished and can be closed.
  public var isDismissed: Bool { reactor?.currentState.isDismissed ?? true }

  /// Handles a key: editing keys change the title, Enter submits, Escape cancels.
  public func handle(_ key: Key) {
    guard let reactor else { return }
    switch key {
    case .enter:
      reactor.send(.submit)
    case .escape:
      reactor.send(.cancel)
    default:
      let before = field.text
      field.handle(key)
      if field.text != before { reactor.send(.updateTitle(field.text)) }
    }
  }

  public func render(_ context: RenderContext) -> [String] {
    guard let state = reactor?.currentState else { return [] }
    let style = context.style
    let label =
      switch state.mode {
      case .add: "new todo: "
      case .edit(let todo): "edit #\(todo.id): "
      }
    var lines = [style.bold(label) + field.rendered(style)]
    if let message = state.validationMessage { lines.append(style.color(.red, message)) }
    return lines
  }
}
