/// An observer that applies each element to a target object on a scheduler, the main
/// scheduler by default; the usual way to bind a state stream to a UI property.
///
/// The target is held weakly: once it is gone, elements are ignored. Completion is ignored.
/// An error is a programming error (bindings are for sequences that cannot fail): it stops the
/// program in debug builds and is printed in release builds.
///
/// ```swift
/// extension Reactive where Base: Label {
///   var title: Binder<String> { Binder(base) { label, text in label.text = text } }
/// }
/// reactor.state.map(\.title).bind(to: label.rx.title).disposed(by: disposeBag)
/// ```
///
/// For a writable property of a class, `object.rx.property` is such a binder already (see
/// ``Reactive``).
public struct Binder<Value>: ObserverType {
  private let binding: (Event<Value>) -> Void

  /// Creates a binder that calls `binding` with `target` and each element.
  ///
  /// - Parameters:
  ///   - target: The object to update; held weakly.
  ///   - scheduler: Where `binding` runs. Defaults to `MainScheduler.instance`, which runs it
  ///     at once when already on the main thread.
  ///   - binding: Applies an element to the target.
  public init<Target: AnyObject>(
    _ target: Target,
    scheduler: ImmediateSchedulerType = MainScheduler.instance,
    binding: @escaping (Target, Value) -> Void
  ) {
    self.binding = { [weak target] event in
      switch event {
      case .next(let element):
        _ = scheduler.schedule(element) { [weak target] element in
          if let target { binding(target, element) }
          return Disposables.create()
        }
      case .error(let error):
        bindingError(error)
      case .completed:
        break
      }
    }
  }

  /// Applies a `.next` element to the target; see the type's discussion for the other events.
  public func on(_ event: Event<Value>) {
    binding(event)
  }

  /// The binder as a type-erased observer.
  public func asObserver() -> AnyObserver<Value> {
    AnyObserver(eventHandler: on)
  }
}
