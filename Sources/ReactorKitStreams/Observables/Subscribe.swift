extension ObservableType {
  /// Subscribes with closures for each kind of event.
  ///
  /// - Parameters:
  ///   - onNext: Called for each element.
  ///   - onError: Called when the sequence fails. Without it, the error goes to
  ///     ``Hooks/defaultErrorHandler``.
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
    let handle = SubscriptionHandle(
      onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    // Not `onNext ?? { _ in }`: the generic `??` would wrap the closure in reabstraction
    // thunks, two more calls per element.
    let sink: SubscribeSink<Element>
    if let onNext {
      sink = SubscribeSink(onNext: onNext, handle: handle)
    } else {
      sink = SubscribeSink(onNext: { _ in }, handle: handle)
    }
    // Through `asObservable()`, which keeps the event grammar for a type of the user's own.
    handle.setUpstream(asObservable().subscribe(AnyObserver(eventHandler: { sink.on($0) })))
    return handle
  }

  /// Subscribes with closures that receive `object`, held weakly; events stop once it is
  /// freed.
  @inlinable
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onNext: ((Object, Element) -> Void)? = nil,
    onError: ((Object, Swift.Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    subscribe(
      onNext: weaklyBound(object, onNext), onError: weaklyBound(object, onError),
      onCompleted: weaklyBound(object, onCompleted), onDisposed: weaklyBound(object, onDisposed))
  }

  /// Subscribes a closure that receives every event: elements, then at most one terminal
  /// event, after which the subscription ends.
  @inlinable
  public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
    asObservable().subscribe(AnyObserver(eventHandler: on))
  }
}

/// A closure that passes `object`, held weakly, and its argument to `body`, and does nothing
/// once `object` is freed (or when there is no `body`): the closures of the
/// `subscribe(with:…)` variants.
@usableFromInline func weaklyBound<Object: AnyObject, Value>(
  _ object: Object, _ body: ((Object, Value) -> Void)?
) -> (Value) -> Void {
  { [weak object] value in
    if let object { body?(object, value) }
  }
}

/// A closure that passes `object`, held weakly, to `body`, and does nothing once `object` is
/// freed (or when there is no `body`).
@usableFromInline func weaklyBound<Object: AnyObject>(_ object: Object, _ body: ((Object) -> Void)?)
  -> () -> Void
{
  { [weak object] in
    if let object { body?(object) }
  }
}
