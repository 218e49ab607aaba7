import ReactorKitReSwift

/// The counter's screen, a ReSwift subscriber of the counter's value: renders it as text.
public final class CounterScreen: StoreSubscriber {
  /// The rendered screen.
  public private(set) var text = ""
  /// How many times the screen was rendered.
  public private(set) var renderCount = 0

  public init() {}

  /// Shows the screen: subscribes to the counter (repeats skipped automatically: `Int` is
  /// `Equatable`).
  public func appear(in store: Store<CounterState>) {
    store.subscribe(self) { $0.select(\.counter) }
  }

  /// Hides the screen: unsubscribes.
  public func disappear(from store: Store<CounterState>) {
    store.unsubscribe(self)
  }

  public func newState(state: Int) {
    renderCount += 1
    let bar =
      String(repeating: " ", count: CounterState.limit + min(state, 0))
      + String(repeating: "#", count: abs(state))
    text =
      "ReSwift counter  (-\(CounterState.limit)…\(CounterState.limit))\nvalue: \(state)  [\(bar)]"
  }
}
