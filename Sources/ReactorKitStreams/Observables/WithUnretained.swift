extension ObservableType {
  /// Pairs each element with `object`, held weakly; the sequence completes at the first
  /// element that arrives after `object` was freed.
  ///
  /// Use it instead of `[weak self]` in the closures after it:
  ///
  /// ```swift
  /// reactor.state.map(\.title)
  ///   .withUnretained(self)
  ///   .subscribe(onNext: { owner, title in owner.label.text = title })
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to pass on; not retained by the sequence.
  ///   - resultSelector: Combines the object and an element.
  /// - Returns: The results of `resultSelector`.
  @inlinable
  public func withUnretained<Object: AnyObject, Out>(
    _ object: Object, resultSelector: @escaping (Object, Element) -> Out
  ) -> Observable<Out> {
    // Only the weak reference is kept, by the observable and by each subscription.
    sinking { [weak object] sink in
      { event in
        sink.receive(event) { element in
          guard let object else {
            sink.forwardTerminal(.completed)
            return
          }
          sink.forwardNext(resultSelector(object, element))
        }
      }
    }
  }

  /// Pairs each element with `object`, held weakly; the sequence completes at the first
  /// element that arrives after `object` was freed.
  ///
  /// - Parameter object: The object to pass on; not retained by the sequence.
  /// - Returns: Pairs of the object and each element.
  @inlinable
  public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
    withUnretained(object) { ($0, $1) }
  }
}
