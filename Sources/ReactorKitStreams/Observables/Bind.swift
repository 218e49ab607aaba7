extension ObservableType {
  /// Sends the elements to `observers`. Binding is meant for sequences that never fail; an
  /// error stops the program in debug builds and is dropped in release builds.
  @inlinable
  public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element {
    subscribe { event in
      if case .error(let error) = event {
        bindingError(error)
        return
      }
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends the elements, as optionals, to `observers`.
  @inlinable
  public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
  where Observer.Element == Element? {
    map { $0 as Element? }.subscribe { event in
      if case .error(let error) = event {
        bindingError(error)
        return
      }
      for observer in observers { observer.on(event) }
    }
  }

  /// Accepts each element into the relays.
  @inlinable
  public func bind(to relays: PublishRelay<Element>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into the relays.
  @inlinable
  public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element into the relays.
  @inlinable
  public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into the relays.
  @inlinable
  public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into the relays.
  @inlinable
  public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into the relays.
  @inlinable
  public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
    bind(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Calls `onNext` for each element. An error stops the program in debug builds.
  @inlinable
  public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
    subscribe(onNext: onNext, onError: { bindingError($0) })
  }

  /// Applies `binder` to the observable; used for custom binding functions.
  @inlinable
  public func bind<Result>(to binder: (Self) -> Result) -> Result {
    binder(self)
  }
}

/// Reports an error that reached a binding: a programming error, fatal in debug builds and
/// printed in release builds. Shared with the other modules of the package.
@usableFromInline package func bindingError(_ error: Swift.Error) {
  let message = "Binding error: \(error)"
  #if DEBUG
    fatalError(message)
  #else
    print(message)
  #endif
}
