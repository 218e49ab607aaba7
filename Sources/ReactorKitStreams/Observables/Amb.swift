extension ObservableType {
  /// Mirrors whichever of `sources` sends an event first and disposes the others.
  ///
  /// - Parameter sources: The competing sequences.
  /// - Returns: The events of the first sequence to send one; never ends when `sources` is
  ///   empty.
  @inlinable
  public static func amb<Sources: Sequence>(_ sources: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    sources.reduce(Observable<Element>.never()) { $0.amb($1) }
  }

  /// Mirrors whichever of this sequence and `right` sends an event first and disposes the
  /// other.
  ///
  /// - Parameter right: The competing sequence.
  /// - Returns: The events of the first sequence to send one.
  @inlinable
  public func amb<Right: ObservableConvertibleType>(_ right: Right) -> Observable<Element>
  where Right.Element == Element {
    let left = asObservable()
    return Observable { observer in
      AmbSink(observer).run(left, right.asObservable())
    }
  }
}

/// Elects the first of two sequences to send an event and forwards only its events.
@usableFromInline
final class AmbSink<Element>: @unchecked Sendable {
  // Safety: `winner` is guarded by `lock`; `sink` and the disposables synchronise
  // themselves. Only the winner's events, which arrive serially, are forwarded.
  @usableFromInline let sink: Sink<Element>
  @usableFromInline let lock = Lock()
  @usableFromInline var winner: Int?
  @usableFromInline let subscriptions = [
    SingleAssignmentDisposable(), SingleAssignmentDisposable(),
  ]

  @inlinable
  init(_ observer: AnyObserver<Element>) {
    sink = Sink(observer)
    sink.extra = Disposables.create(subscriptions)
  }

  @inlinable
  func run(_ left: Observable<Element>, _ right: Observable<Element>) -> Disposable {
    subscriptions[0].setDisposable(left.subscribe(AnyObserver { self.on($0, from: 0) }))
    if lock.withLock({ winner }) == nil {
      subscriptions[1].setDisposable(right.subscribe(AnyObserver { self.on($0, from: 1) }))
    } else {
      subscriptions[1].dispose()
    }
    return sink
  }

  @inlinable
  func on(_ event: Event<Element>, from side: Int) {
    lock.lock()
    if let winner {
      lock.unlock()
      if winner == side { sink.forward(event) }
      return
    }
    winner = side
    lock.unlock()
    subscriptions[1 - side].dispose()
    sink.forward(event)
  }
}
