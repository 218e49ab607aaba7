// The one loop behind the never-failing traits' `bind(to:)` (`Infallible`), `emit(to:)`
// (`Signal`) and `drive(_:)` (`Driver`) over observers: every event goes to each observer, in
// order.

extension ObservableConvertibleType {
  /// Subscribes so that each event goes to every one of `observers`, in order.
  func fanOut<Observer: ObserverType>(to observers: [Observer]) -> Disposable
  where Observer.Element == Element {
    asObservable().subscribe { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Subscribes so that each event, its element made optional, goes to every one of
  /// `observers`, in order.
  func fanOut<Observer: ObserverType>(toOptionals observers: [Observer]) -> Disposable
  where Observer.Element == Element? {
    asObservable().map { $0 as Element? }.fanOut(to: observers)
  }
}
