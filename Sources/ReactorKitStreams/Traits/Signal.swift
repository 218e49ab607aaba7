/// A ``SharedSequence`` for events (taps, one-off notifications): it never fails, delivers
/// on the main scheduler (``SharingScheduler``), and shares one subscription without
/// replaying anything to new observers (`share(scope: .whileConnected)`).
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The sharing strategy of ``Signal``.
public struct SignalSharingStrategy: SharingStrategyProtocol {
  /// ``SharingScheduler/make``'s scheduler, the main scheduler by default.
  public static var scheduler: SchedulerType { SharingScheduler.make() }

  /// Shares without replay while connected.
  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(scope: .whileConnected)
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  /// Returns the signal itself.
  public func asSignal() -> Signal<Element> { asSharedSequence() }
}

extension ObservableConvertibleType {
  /// Converts the sequence to a ``Signal`` that ends with `onErrorJustReturn` (then
  /// completes) instead of failing.
  ///
  /// - Parameter onErrorJustReturn: The element sent in place of an error.
  /// - Returns: The signal.
  public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
    asSharedSequence { $0.catchAndReturn(onErrorJustReturn) }
  }

  /// Converts the sequence to a ``Signal`` that continues with `onErrorSignalWith` instead
  /// of failing.
  public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
    asSharedSequence { $0.catch { _ in onErrorSignalWith.asObservable() } }
  }

  /// Converts the sequence to a ``Signal`` that continues with the signal
  /// `onErrorRecover` returns for the error instead of failing.
  public func asSignal(onErrorRecover: @escaping (Swift.Error) -> Signal<Element>)
    -> Signal<Element>
  {
    asSharedSequence { $0.catch { onErrorRecover($0).asObservable() } }
  }
}

extension PublishRelay {
  /// The relay as a ``Signal``: every later element, on the main scheduler.
  public func asSignal() -> Signal<Element> {
    Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  /// Sends the elements and the completion to `observers`.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element {
    fanOut(to: observers)
  }

  /// Sends the elements, as optionals, and the completion to `observers`.
  public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element? {
    fanOut(toOptionals: observers)
  }

  /// Accepts each element into `relays`.
  public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`.
  public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into `relays`.
  public func emit(to relays: PublishRelay<Element>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`.
  public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Subscribes closures; there is no error closure because a signal cannot fail.
  ///
  /// - Parameters:
  ///   - onNext: Called for each element.
  ///   - onCompleted: Called when the signal completes.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that ends the subscription.
  public func emit(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly.
  public func emit<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    asObservable().subscribe(
      with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes without handlers, keeping the signal's side effects running.
  public func emit() -> Disposable {
    emit(onNext: nil, onCompleted: nil, onDisposed: nil)
  }
}
