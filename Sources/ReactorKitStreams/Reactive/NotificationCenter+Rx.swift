import Foundation

#if !canImport(ObjectiveC)
  // On Apple platforms `NotificationCenter` is an `NSObject`, which offers `.rx` already;
  // elsewhere Foundation's is a plain class.
  extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
  /// The notifications named `name` (any name for `nil`) posted by `object` (any object for
  /// `nil`), from the subscription on; the sequence never ends by itself.
  ///
  /// Each subscription adds an observer to the center and disposing removes it.
  /// Notifications arrive on the posting thread; posts from several threads at once are
  /// delivered one at a time.
  ///
  /// ```swift
  /// NotificationCenter.default.rx.notification(.NSCalendarDayChanged)
  ///   .map { _ in Reactor.Action.refresh }
  ///   .bind(to: reactor.action)
  ///   .disposed(by: disposeBag)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every notification.
  ///   - object: The sender to observe, or `nil` for every sender.
  /// - Returns: The notifications.
  public func notification(_ name: Notification.Name?, object: AnyObject? = nil)
    -> Observable<Notification>
  {
    let center = UncheckedSendable(base)
    let sender = UncheckedSendable(object)
    return Observable { observer in
      let serial = SerialSink(Sink(observer), state: ())
      // The center and its token are thread-safe; the sender is only passed back to it.
      let token = UncheckedSendable(
        center.value.addObserver(forName: name, object: sender.value, queue: nil) {
          notification in
          let delivered = UncheckedSendable(notification)
          serial.transition { _, emit in emit(.next(delivered.value)) }
        })
      serial.sink.extra = Disposables.create { center.value.removeObserver(token.value) }
      return serial.sink
    }
  }
}
