import ExampleSupport
import ReactorKit

/// The title line: who is signed in.
public final class SessionView: ReactorView {
  public var disposeBag = DisposeBag()
  /// Called when the view's content changes.
  public var onChange: (() -> Void)?
  /// The latest alert from the reactor, until ``clearAlert()``.
  public private(set) var alert: String?

  public init() {}

  public func bind(reactor: SessionReactor) {
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

  public func render(_ context: RenderContext) -> [String] {
    let style = context.style
    let user = reactor?.currentState.user
    let who = user.map { "signed in as " + style.bold($0.name) } ?? style.dim("not signed in")
    return [style.bold("Todos") + " · " + who]
  }
}
