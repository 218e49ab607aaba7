/// A ``SharedSequence`` for driving UI state: it never fails, delivers on the main
/// scheduler (``SharingScheduler``), and shares one subscription that replays the latest
/// element to new observers (`share(replay: 1, scope: .whileConnected)`).
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The sharing strategy of ``Driver``.
public struct DriverSharingStrategy: SharingStrategyProtocol {
  /// ``SharingScheduler/make``'s scheduler, the main scheduler by default.
  public static var scheduler: SchedulerType { SharingScheduler.make() }

  /// Shares with a replay of the latest element while connected.
  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(replay: 1, scope: .whileConnected)
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  /// Returns the driver itself.
  public func asDriver() -> Driver<Element> { asSharedSequence() }
}

extension ObservableConvertibleType {
  /// Converts the sequence to a ``Driver`` that ends with `onErrorJustReturn` (then
  /// completes) instead of failing.
  ///
  /// - Parameter onErrorJustReturn: The element sent in place of an error.
  /// - Returns: The driver.
  public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
    asSharedSequence { $0.catchAndReturn(onErrorJustReturn) }
  }

  /// Converts the sequence to a ``Driver`` that continues with `onErrorDriveWith` instead
  /// of failing.
  ///
  /// - Parameter onErrorDriveWith: The driver to continue with after an error.
  /// - Returns: The driver.
  public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
    asSharedSequence { $0.catch { _ in onErrorDriveWith.asObservable() } }
  }

  /// Converts the sequence to a ``Driver`` that continues with the driver
  /// `onErrorRecover` returns for the error instead of failing.
  ///
  /// - Parameter onErrorRecover: Makes the driver to continue with.
  /// - Returns: The driver.
  public func asDriver(onErrorRecover: @escaping (Swift.Error) -> Driver<Element>)
    -> Driver<Element>
  {
    asSharedSequence { $0.catch { onErrorRecover($0).asObservable() } }
  }
}

extension BehaviorRelay {
  /// The relay as a ``Driver``: its current value first, then every new one, on the main
  /// scheduler.
  public func asDriver() -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
  }
}

private let driveOnMainThreadMessage = """
  `drive*` methods can only be called on the main thread, so that the replayed element \
  is delivered on the main thread.
  """

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  /// Sends the elements and the completion to `observers`. Call on the main thread.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
  where Observer.Element == Element {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return fanOut(to: observers)
  }

  /// Sends the elements, as optionals, and the completion to `observers`. Call on the main
  /// thread.
  public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
  where Observer.Element == Element? {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return fanOut(toOptionals: observers)
  }

  /// Accepts each element into `relays`. Call on the main thread.
  public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`. Call on the main thread.
  public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into `relays`. Call on the main thread.
  public func drive(_ relays: PublishRelay<Element>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Applies a binding function to the driver's observable. Call on the main thread.
  public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return transformation(asObservable())
  }

  /// Applies a curried binding function to the driver's observable and `curriedArgument`.
  /// Call on the main thread.
  public func drive<Argument, Result>(
    _ with: (Observable<Element>) -> (Argument) -> Result, curriedArgument: Argument
  ) -> Result {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return with(asObservable())(curriedArgument)
  }

  /// Subscribes closures; there is no error closure because a driver cannot fail. Call on
  /// the main thread.
  ///
  /// - Parameters:
  ///   - onNext: Called for each element.
  ///   - onCompleted: Called when the driver completes.
  ///   - onDisposed: Called once the subscription ends.
  /// - Returns: A disposable that ends the subscription.
  public func drive(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return asObservable().subscribe(
      onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes closures that receive `object`, held weakly. Call on the main thread.
  public func drive<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> Disposable {
    MainScheduler.ensureRunningOnMainThread(message: driveOnMainThreadMessage)
    return asObservable().subscribe(
      with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes without handlers, keeping the driver's side effects running. Call on the
  /// main thread.
  public func drive() -> Disposable {
    drive(onNext: nil, onCompleted: nil, onDisposed: nil)
  }
}
