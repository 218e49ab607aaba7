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

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, while isWanted: () -> Bool, _ body: (Element) -> Void
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

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, while isWanted: () -> Bool, _ body: (Element) -> Void
  ) -> Bool {
    true
  }
}

/// The observable behind ``ObservableType/from(_:scheduler:)`` and `of`: the elements of a
/// sequence, pulled one at a time for each subscription and only while it is open (see
/// ``Sink/produce(from:on:_:)``), one per step of the scheduler, then completion.
@usableFromInline
final class SequenceObservable<Element>: Observable<Element>, @unchecked Sendable {
  // Safety: immutable after init; the closures only make iterators of the captured sequence
  // (each subscription or fast-path consumer iterates its own); schedulers are thread-safe.
  @usableFromInline let isTrampolined: Bool
  /// Calls its second argument with each element; asks the first before each element after
  /// the first, and stops once it returns `false`.
  @usableFromInline let forEach: (() -> Bool, (Element) -> Void) -> Void

  @inlinable
  init<Source: Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType)
  where Source.Element == Element {
    isTrampolined = scheduler is CurrentThreadScheduler
    forEach = { isWanted, body in
      var iterator = sequence.makeIterator()
      guard let first = iterator.next() else { return }
      body(first)
      while isWanted(), let element = iterator.next() { body(element) }
    }
    super.init { observer in
      Sink(observer).produce(from: sequence.makeIterator(), on: scheduler) { $0.next() }
    }
  }

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, _ body: (Element) -> Void
  ) -> Bool {
    forEachSynchronousElement(respectingTrampoline: respectingTrampoline, while: { true }, body)
  }

  @usableFromInline
  override package func forEachSynchronousElement(
    respectingTrampoline: Bool, while isWanted: () -> Bool, _ body: (Element) -> Void
  ) -> Bool {
    guard isTrampolined, !respectingTrampoline || CurrentThreadScheduler.isScheduleRequired
    else { return false }
    forEach(isWanted, body)
    return true
  }
}
