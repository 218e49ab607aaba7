extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
  /// Forwards the elements of the latest inner sequence, dropping the previous one.
  ///
  /// The result has the inner sequences' sharing strategy (a ``Driver`` of ``Signal``s
  /// switches into a ``Signal``), as in RxCocoa.
  public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
    SharedSequence(asObservable().map { $0.asObservable() }.switchLatest())
  }

  /// Merges the elements of every inner sequence.
  ///
  /// The result has the inner sequences' sharing strategy.
  public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
    SharedSequence(asObservable().map { $0.asObservable() }.merge())
  }

  /// Merges the elements of the inner sequences, subscribed to at most `maxConcurrent` at a
  /// time; the others wait in order until one completes.
  ///
  /// - Parameter maxConcurrent: How many inner sequences run at once (at least 1).
  /// - Returns: The merged elements, with the inner sequences' sharing strategy.
  public func merge(maxConcurrent: Int) -> SharedSequence<
    Element.SharingStrategy, Element.Element
  > {
    SharedSequence(asObservable().map { $0.asObservable() }.merge(maxConcurrent: maxConcurrent))
  }
}

extension ObservableConvertibleType {
  /// Converts the sequence to a shared sequence of `Strategy` that ends with
  /// `onErrorJustReturn` (then completes) instead of failing: the generic form of
  /// `asDriver(onErrorJustReturn:)` and `asSignal(onErrorJustReturn:)`.
  ///
  /// - Parameters:
  ///   - sharingStrategy: The strategy, such as `DriverSharingStrategy.self`.
  ///   - onErrorJustReturn: The element sent in place of an error.
  /// - Returns: The shared sequence.
  public func asSharedSequence<Strategy: SharingStrategyProtocol>(
    sharingStrategy: Strategy.Type = Strategy.self, onErrorJustReturn: Element
  ) -> SharedSequence<Strategy, Element> {
    asSharedSequence { $0.catchAndReturn(onErrorJustReturn) }
  }

  /// Converts the sequence to a shared sequence of `Strategy` that continues with
  /// `onErrorDriveWith` instead of failing.
  ///
  /// - Parameters:
  ///   - sharingStrategy: The strategy, such as `SignalSharingStrategy.self`.
  ///   - onErrorDriveWith: The shared sequence to continue with after an error.
  /// - Returns: The shared sequence.
  public func asSharedSequence<Strategy: SharingStrategyProtocol>(
    sharingStrategy: Strategy.Type = Strategy.self,
    onErrorDriveWith: SharedSequence<Strategy, Element>
  ) -> SharedSequence<Strategy, Element> {
    asSharedSequence { $0.catch { _ in onErrorDriveWith.asObservable() } }
  }

  /// Converts the sequence to a shared sequence of `Strategy` that continues with the one
  /// `onErrorRecover` returns for the error instead of failing.
  ///
  /// - Parameters:
  ///   - sharingStrategy: The strategy.
  ///   - onErrorRecover: Makes the shared sequence to continue with.
  /// - Returns: The shared sequence.
  public func asSharedSequence<Strategy: SharingStrategyProtocol>(
    sharingStrategy: Strategy.Type = Strategy.self,
    onErrorRecover: @escaping (Swift.Error) -> SharedSequence<Strategy, Element>
  ) -> SharedSequence<Strategy, Element> {
    asSharedSequence { $0.catch { onErrorRecover($0).asObservable() } }
  }
}
