import Synchronization

/// The per-subscription state of an operator.
///
/// A sink forwards events to its downstream observer while enforcing the grammar: after a
/// terminal event or `dispose()` nothing else is delivered. It owns the upstream
/// subscription (``upstream``) and optional extra resources (``extra``), all released on the
/// first terminal event or `dispose()`.
///
/// Operators create one sink per subscription and capture it in the closure they subscribe
/// upstream with; disposing breaks that cycle.
@usableFromInline
final class Sink<Element>: Cancelable, @unchecked Sendable {
  // Safety: `state` is atomic; `observer` is immutable; the disposables synchronise
  // themselves. Serial delivery upstream means `forward` is never entered concurrently.
  @usableFromInline static var open: Int { 0 }
  @usableFromInline static var stopped: Int { 1 }
  @usableFromInline static var disposedBit: Int { 2 }

  @usableFromInline let observer: AnyObserver<Element>
  @usableFromInline let state = Atomic<Int>(0)
  @usableFromInline let upstream = SingleAssignmentDisposable()
  @usableFromInline var extra: Disposable?

  @inlinable
  init(_ observer: AnyObserver<Element>) {
    self.observer = observer
    Resources.incrementTotal()
  }

  deinit {
    Resources.decrementTotal()
  }

  /// Whether events may still be forwarded.
  @inlinable
  var isOpen: Bool { state.load(ordering: .acquiring) == 0 }

  @inlinable
  var isDisposed: Bool { state.load(ordering: .acquiring) & 2 != 0 }

  /// Forwards a `.next` event when still open.
  @inlinable
  func forwardNext(_ element: Element) {
    if state.load(ordering: .acquiring) == 0 {
      observer.on(.next(element))
    }
  }

  /// Forwards any event; a terminal event closes the sink and releases its resources.
  @inlinable
  func forward(_ event: Event<Element>) {
    switch event {
    case .next:
      if state.load(ordering: .acquiring) == 0 { observer.on(event) }
    case .error, .completed:
      forwardTerminal(event)
    }
  }

  /// Closes the sink with a terminal event, delivered only if nothing closed it before. Kept
  /// out of line (it runs once per subscription) so operators' per-element code stays small.
  @inlinable
  @inline(never)
  func forwardTerminal(_ event: Event<Element>) {
    let (exchanged, _) = state.compareExchange(
      expected: 0, desired: 1, ordering: .acquiringAndReleasing)
    guard exchanged else { return }
    observer.on(event)
    dispose()
  }

  /// Forwards the terminal event `event` of an upstream of another element type; ignores a
  /// `.next` event. Kept out of line so operators' per-element code stays small.
  @inlinable
  @inline(never)
  func forwardTerminal<Upstream>(from event: Event<Upstream>) {
    switch event {
    case .next: break
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }

  /// Ends the sequence with `error` (thrown by an operator's closure). Kept out of line so
  /// operators' per-element code stays small.
  @inlinable
  @inline(never)
  func fail(_ error: Swift.Error) {
    forwardTerminal(.error(error))
  }

  /// Stops forwarding and releases the upstream subscription and extra resources.
  @inlinable
  func dispose() {
    let previous = state.bitwiseOr(2, ordering: .acquiringAndReleasing).oldValue
    guard previous & 2 == 0 else { return }
    upstream.dispose()
    extra?.dispose()
  }

  /// Subscribes upstream and returns `self` as the subscription's disposable.
  @inlinable
  func run<Source: ObservableType>(
    _ source: Source, _ handler: @escaping (Event<Source.Element>) -> Void
  ) -> Disposable {
    upstream.setDisposable(source.subscribe(AnyObserver(eventHandler: handler)))
    return self
  }
}
