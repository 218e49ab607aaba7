extension SharedSequenceConvertibleType {
  /// Pairs each element with `object`, held weakly, as ``ObservableType/withUnretained(_:resultSelector:)``
  /// does: the sequence completes at the first element after `object` was freed.
  ///
  /// The result is not shared again (a replay buffer would keep `object` alive): each
  /// subscriber runs `resultSelector` for the elements of the shared source.
  ///
  /// - Parameters:
  ///   - object: The object to pass on; not retained by the sequence.
  ///   - resultSelector: Combines the object and an element.
  /// - Returns: The results, with the same sharing strategy.
  public func withUnretained<Object: AnyObject, Out>(
    _ object: Object, resultSelector: @escaping (Object, Element) -> Out
  ) -> SharedSequence<SharingStrategy, Out> {
    // Not shared again: a replay buffer would hold the latest pair, and with it `object`.
    // The source is shared already and replays its latest element to each subscriber,
    // which pairs it with the object anew.
    SharedSequence(raw: asObservable().withUnretained(object, resultSelector: resultSelector))
  }

  /// Pairs each element with `object`, held weakly; the sequence completes at the first
  /// element after `object` was freed.
  ///
  /// - Parameter object: The object to pass on; not retained by the sequence.
  /// - Returns: Pairs of the object and each element, with the same sharing strategy.
  public func withUnretained<Object: AnyObject>(_ object: Object)
    -> SharedSequence<SharingStrategy, (Object, Element)>
  {
    withUnretained(object) { ($0, $1) }
  }
}
