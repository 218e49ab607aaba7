extension Infallible where Element: Sendable {
  /// The elements as an `AsyncStream`, for `for await` loops: an infallible cannot fail, so
  /// the loop does not throw.
  ///
  /// Reading the property subscribes; elements are buffered until the loop reads them. The
  /// stream finishes when the infallible completes. Cancelling the iterating task, breaking
  /// out of the loop or dropping the stream disposes the subscription.
  public var values: AsyncStream<Element> {
    source.nonFailingValues
  }
}

extension InfallibleType {
  /// Applies `binder` to the infallible; used for custom binding functions.
  public func bind<Result>(to binder: (Self) -> Result) -> Result {
    binder(self)
  }

  /// Applies the curried `binder` to the infallible and then to `curriedArgument`.
  public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
    binder(self)(curriedArgument)
  }

  /// The infallible as a ``Driver``: its elements on the main scheduler
  /// (``SharingScheduler``), shared with a replay of the latest.
  public func asDriver() -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
  }
}

extension PublishRelay {
  /// The relay as an ``Infallible``: it never fails or completes.
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension BehaviorRelay {
  /// The relay as an ``Infallible``: its current value first, then every new one.
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension ReplayRelay {
  /// The relay as an ``Infallible``: its buffered values first, then every new one.
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
