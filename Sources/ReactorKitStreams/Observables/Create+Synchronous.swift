/// The observable behind ``ObservableType/just(_:)``: one element, then completion.
@usableFromInline
final class JustObservable<Element>: Observable<Element>, @unchecked Sendable {
  // Safety: immutable after init.
  @usableFromInline let element: Element

  @inlinable
  init(_ element: Element) {
    self.element = element
    super.init(uncounted: ())
  }

  @usableFromInline
  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    observer.on(.next(element))
    observer.on(.completed)
    return Disposables.create()
  }

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, _ body: (Element) -> Void
  ) -> Bool {
    body(element)
    return true
  }
}

/// The observable behind ``ObservableType/empty()``: completes at once.
@usableFromInline
final class EmptyObservable<Element>: Observable<Element>, @unchecked Sendable {
  // Safety: no stored state.
  @inlinable
  override init() { super.init(uncounted: ()) }

  @usableFromInline
  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    observer.on(.completed)
    return Disposables.create()
  }

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, _ body: (Element) -> Void
  ) -> Bool {
    true
  }
}

/// The observable behind ``ObservableType/from(_:scheduler:)`` and `of`: the elements, one per
/// step of the scheduler, then completion.
final class SequenceObservable<Element>: Observable<Element>, @unchecked Sendable {
  // Safety: immutable after init; schedulers are thread-safe.
  private let elements: [Element]
  private let scheduler: ImmediateSchedulerType

  init(_ elements: [Element], scheduler: ImmediateSchedulerType) {
    self.elements = elements
    self.scheduler = scheduler
    super.init()
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    let sink = Sink(observer)
    let elements = self.elements
    sink.setUpstream(
      scheduler.scheduleRecursive(0) { index, recurse in
        if index < elements.count {
          sink.forwardNext(elements[index])
          recurse(index + 1)
        } else {
          sink.forwardTerminal(.completed)
        }
      })
    return sink
  }

  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, _ body: (Element) -> Void
  ) -> Bool {
    guard scheduler is CurrentThreadScheduler,
      !respectingTrampoline || CurrentThreadScheduler.isScheduleRequired
    else { return false }
    for element in elements { body(element) }
    return true
  }
}
