import ExampleSupport
import ReactorKit

/// One line of statistics.
public final class StatsView: ReactorView {
  public var disposeBag = DisposeBag()
  /// Called when the view's content changes.
  public var onChange: (() -> Void)?

  public init() {}

  public func bind(reactor: StatsReactor) {
    reactor.state
      .subscribe(with: self, onNext: { view, _ in view.onChange?() })
      .disposed(by: disposeBag)
  }

  public func render(_ context: RenderContext) -> [String] {
    guard let stats = reactor?.currentState else { return [] }
    let todos = stats.total == 1 ? "1 todo" : "\(stats.total) todos"
    let summary =
      "\(todos) · \(stats.done) done · \(stats.active) active · \(stats.percentDone)% done"
    return [context.style.dim(summary)]
  }
}
