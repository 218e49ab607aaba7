/// The per-subscription state of an operator.
///
/// A sink forwards events to its downstream observer while enforcing the grammar: after a
/// terminal event or `dispose()` nothing else is delivered. It owns the upstream
/// subscription (``setUpstream(_:)``, held the way a `SingleAssignmentDisposable` holds its
/// disposable, without a second object) and optional extra resources (``extra``), all
/// released on the first terminal event or `dispose()`.
///
/// Operators create one sink per subscription and capture it in the closure they subscribe
/// upstream with; disposing breaks that cycle, and so does the source letting go of the
/// subscription without a terminal event (a subject freed or disposed): the sink is a
/// ``SubscriptionLink`` and, when it holds no ``extra`` resources that could still emit or
/// need disposing, drops its upstream subscription and passes the release on downstream. An
/// ``extra`` that adopts ``UpstreamReleaseHandling`` decides instead.
@usableFromInline
final class Sink<Element>: SubscriptionLink, Cancelable, @unchecked Sendable {
  // Safety: `state` is atomic; `observer` is immutable; `extra` synchronises itself.
  // `upstream` is written by `setUpstream` before it publishes `upstreamAssigned`, then read
  // and cleared only by whichever of `setUpstream` and `disposeUpstream` sets the second of
  // `upstreamAssigned` and `upstreamDisposed`. Serial delivery upstream means `forward` is
  // never entered concurrently.

  /// The storage of ``state`` and ``upstream``: an ``AtomicSlot`` and an ``ExclusiveSlot``,
  /// so the first stored properties after the link's (slot 0, see ``SubscriptionLink``):
  /// slots 1 and 2.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case state = 1
    case upstream
  }
  @usableFromInline var stateSlot = AtomicSlot(0)
  @usableFromInline var upstreamSlot = ExclusiveSlot<Disposable?>(nil)

  @usableFromInline static var open: Int { 0 }
  @usableFromInline static var stopped: Int { 1 }
  @usableFromInline static var disposedBit: Int { 2 }
  /// `stopped` or `disposedBit`: nothing more is forwarded.
  @usableFromInline static var closedBits: Int { 3 }
  @usableFromInline static var upstreamAssigned: Int { 4 }
  @usableFromInline static var upstreamDisposed: Int { 8 }

  @usableFromInline let observer: AnyObserver<Element>
  @inlinable var state: UnsafeAtomic<Int> { UnsafeAtomic(Slots.state, of: self) }
  /// The upstream subscription, once assigned (see the safety note above).
  @inlinable var upstream: ExclusiveSlotView<Disposable?> {
    ExclusiveSlotView(Slots.upstream, of: self)
  }
  @usableFromInline var extra: Disposable?

  @inlinable
  init(_ observer: AnyObserver<Element>) {
    self.observer = observer
    super.init()
    Resources.incrementTotal()
  }

  deinit {
    Resources.decrementTotal()
  }

  /// Whether events may still be forwarded.
  @inlinable
  var isOpen: Bool { state.load(ordering: .acquiring) & Self.closedBits == 0 }

  @inlinable
  var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

  /// Forwards a `.next` event when still open.
  @inlinable
  func forwardNext(_ element: Element) {
    if state.load(ordering: .acquiring) & Self.closedBits == 0 {
      observer.on(.next(element))
    }
  }

  /// Forwards any event; a terminal event closes the sink and releases its resources.
  @inlinable
  func forward(_ event: Event<Element>) {
    switch event {
    case .next:
      if state.load(ordering: .acquiring) & Self.closedBits == 0 { observer.on(event) }
    case .error, .completed:
      forwardTerminal(event)
    }
  }

  /// Closes the sink with a terminal event, delivered only if nothing closed it before. Kept
  /// out of line (it runs once per subscription) so operators' per-element code stays small.
  @inlinable
  @inline(never)
  func forwardTerminal(_ event: Event<Element>) {
    let previous = state.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
    guard previous & Self.closedBits == 0 else { return }
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
    let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
    guard previous & Self.disposedBit == 0 else { return }
    forgetHolder()
    disposeUpstream()
    extra?.dispose()
  }

  /// The source let go of the upstream subscription without a terminal event: nothing will
  /// arrive through it. Without ``extra`` resources, drops it and tells the holder
  /// (``releaseWithSource()``); an ``extra`` that adopts ``UpstreamReleaseHandling`` decides;
  /// any other ``extra`` (a timer that may still emit, a second source) keeps the sink as it
  /// is, to be disposed from downstream.
  @usableFromInline
  override func upstreamReleased() {
    guard let extra else {
      releaseWithSource()
      return
    }
    (extra as? UpstreamReleaseHandling)?.upstreamReleased(of: self)
  }

  /// Drops the upstream subscription, its source gone, and tells the holder: the sink is
  /// freed once nothing else references it.
  @usableFromInline
  func releaseWithSource() {
    disposeUpstream()
    releaseFromSource()
  }

  /// Tells the holder that the source is gone, then disposes the sink, its ``extra``
  /// resources included: for sinks whose resources must be given back when nothing more can
  /// arrive (a reference count).
  @usableFromInline
  func disposeWithSource() {
    releaseFromSource()
    dispose()
  }

  /// Stores the upstream subscription, once; disposes it at once when ``disposeUpstream()``
  /// (or ``dispose()``) came first.
  @inlinable
  func setUpstream(_ disposable: Disposable) {
    let previous = assignUpstream(
      disposable, to: upstream, state: state, assigned: Self.upstreamAssigned,
      disposed: Self.upstreamDisposed)
    precondition(previous & Self.upstreamAssigned == 0, "Sink: upstream assigned twice.")
  }

  /// Disposes the upstream subscription (now, or when it is assigned) without closing the
  /// sink: what was already queued may still be forwarded.
  @inlinable
  func disposeUpstream() {
    let previous = state.bitwiseOr(Self.upstreamDisposed, ordering: .acquiringAndReleasing)
      .oldValue
    guard previous & Self.upstreamDisposed == 0, previous & Self.upstreamAssigned != 0 else {
      return
    }
    let toDispose = upstream.take()
    toDispose?.dispose()
  }

  /// Subscribes upstream and returns `self` as the subscription's disposable.
  @inlinable
  func run<Source: ObservableType>(
    _ source: Source, _ handler: @escaping (Event<Source.Element>) -> Void
  ) -> Disposable {
    setUpstream(source.subscribe(AnyObserver(eventHandler: handler)))
    return self
  }
}

/// An ``Sink/extra`` resource that decides what its sink does when the sink's source lets go
/// of it without a terminal event (see ``SubscriptionLink``).
@usableFromInline
protocol UpstreamReleaseHandling: Disposable {
  /// The source of `sink` let go of it; typically ends with `sink.releaseWithSource()`, now or
  /// once pending work is done.
  func upstreamReleased<Element>(of sink: Sink<Element>)
}

/// An ``Sink/extra`` resource that runs `dispose` once, and disposes its sink (telling the
/// holder first) when the sink's source lets go of it.
@usableFromInline
final class DisposedWithSource: UpstreamReleaseHandling, @unchecked Sendable {
  // Safety: `disposal` synchronises itself.
  @usableFromInline let disposal: Cancelable

  @inlinable
  init(_ dispose: @escaping () -> Void) {
    disposal = Disposables.create(with: dispose)
  }

  @inlinable
  func dispose() { disposal.dispose() }

  @usableFromInline
  func upstreamReleased<Element>(of sink: Sink<Element>) {
    sink.disposeWithSource()
  }
}
