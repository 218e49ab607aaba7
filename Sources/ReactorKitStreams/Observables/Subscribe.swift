extension ObservableType {
  /// Subscribes with closures for each kind of event.
  ///
  /// - Parameters:
  ///   - onNext: Called for each element.
  ///   - onError: Called when the sequence fails.
  ///   - onCompleted: Called when the sequence completes.
  ///   - onDisposed: Called once the subscription ends: after a terminal event or on disposal.
  /// - Returns: A disposable that cancels the subscription. Once the subscription ended (by
  ///   a terminal event or disposal) the disposable no longer references it, so keeping the
  ///   disposable, in a bag or a property, doesn't keep the closures (and what they capture)
  ///   alive.
  @inlinable
  public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onError: ((Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    let disposed: Disposable =
      onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
    let handle = SubscriptionHandle()
    let sink = Sink<Element>(
      AnyObserver { [weak handle] event in
        switch event {
        case .next(let element): onNext?(element)
        case .error(let error):
          onError?(error)
          handle?.subscriptionEnded()
        case .completed:
          onCompleted?()
          handle?.subscriptionEnded()
        }
      })
    sink.extra = disposed
    // Elements go straight to `onNext` (one closure call instead of two per element); terminal
    // events go through the sink, which closes it and releases the subscription.
    _ = sink.run(self) { event in
      if case .next(let element) = event {
        if sink.isOpen { onNext?(element) }
      } else {
        sink.forwardTerminal(event)
      }
    }
    handle.hold(sink)
    return handle
  }

  /// Subscribes with closures that receive `object`, held weakly; events stop once it is
  /// freed.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onNext: ((Object, Element) -> Void)? = nil,
    onError: ((Object, Swift.Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    subscribe(
      onNext: { [weak object] element in
        if let object { onNext?(object, element) }
      },
      onError: { [weak object] error in
        if let object { onError?(object, error) }
      },
      onCompleted: { [weak object] in
        if let object { onCompleted?(object) }
      },
      onDisposed: { [weak object] in
        if let object { onDisposed?(object) }
      })
  }

  /// Subscribes a closure that receives every event.
  @inlinable
  public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
    subscribe(AnyObserver(eventHandler: on))
  }
}
