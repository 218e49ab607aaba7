/// A type that can present itself as an ``Observable``.
public protocol ObservableConvertibleType {
  /// The element type of the sequence.
  associatedtype Element

  /// The sequence as an ``Observable``.
  func asObservable() -> Observable<Element>
}

/// A push-based sequence of elements.
///
/// Subscribing starts delivery of events that follow the grammar `next* (error | completed)?`
/// to the observer, serially. Disposing the returned ``Disposable`` stops delivery and
/// releases the resources of the subscription: once `dispose()` returns, no further event
/// starts, except that an event whose delivery was already under way on another thread
/// may still arrive (delivery is serial, so at most one).
public protocol ObservableType: ObservableConvertibleType {
  /// Subscribes `observer` to the sequence.
  ///
  /// - Parameter observer: Receives the events, one at a time.
  /// - Returns: A disposable that cancels the subscription.
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element
}

extension ObservableType {
  /// Wraps the sequence in an ``Observable`` that keeps the event grammar, as
  /// ``Observable/create(_:)`` does: nothing is delivered after the first `completed` or
  /// `error`, and the subscription to this sequence is disposed at that event.
  ///
  /// Every path by which a type of your own enters the stream core goes through here (the
  /// operators, `subscribe(onNext:…)`, `subscribe(_:)` with a closure, `bind`), so a source
  /// that keeps sending after its end cannot break an operator's state.
  @inlinable
  public func asObservable() -> Observable<Element> {
    Observable.create { observer in self.subscribe(observer) }
  }
}

/// A sequence of elements, the central type of the stream core.
///
/// `Observable` is a class, so identity comparisons (`===`) work and ``asObservable()``
/// returns the same instance. Operators build new observables; nothing runs until someone
/// subscribes.
public class Observable<Element>: ObservableType, @unchecked Sendable {
  // Safety: immutable after init; subclasses synchronise their own state.
  @usableFromInline let handler: ((AnyObserver<Element>) -> Disposable)?
  /// Whether the observable counts in ``Resources/total``.
  @usableFromInline let isCounted: Bool

  /// Creates an observable whose subscriptions run `subscribe`.
  @inlinable
  package init(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) {
    handler = subscribe
    isCounted = true
    Resources.incrementTotal()
  }

  /// Creates an observable whose subscriptions run `subscribe`, not counted in
  /// ``Resources/total``: for short-lived observables the package makes and drops on a hot
  /// path (a reactor's stand-ins for its transforms' inputs), which own nothing themselves.
  @inlinable
  package init(
    uncounted: Void, _ subscribe: @escaping (AnyObserver<Element>) -> Disposable
  ) {
    handler = subscribe
    isCounted = false
  }

  /// Used by subclasses that override ``subscribeObserver(_:)``.
  @usableFromInline
  init() {
    handler = nil
    isCounted = true
    Resources.incrementTotal()
  }

  /// Used by subclasses that hold nothing but constant values (`just`, `empty`): they own no
  /// subscription or other resource, and are often made once per element (a reactor's
  /// `mutate` returning `.just`), so they skip the two atomic updates of ``Resources/total``.
  @inlinable
  init(uncounted: Void) {
    handler = nil
    isCounted = false
  }

  deinit {
    if isCounted { Resources.decrementTotal() }
  }

  /// Subscribes `observer`; see ``ObservableType/subscribe(_:)``.
  ///
  /// When no ``CurrentThreadScheduler`` trampoline runs on this thread, the subscription runs
  /// as trampolined work, as in RxSwift: a synchronous source (`of`, `from`, `range`,
  /// `generate`) starts once the whole chain is subscribed, so an operator that is done early
  /// (`take`) stops it. Everything still happens before this returns.
  @inlinable
  public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    let observer = AnyObserver(observer)
    return CurrentThreadScheduler.trampolined { subscribeObserver(observer) }
  }

  @usableFromInline
  func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    handler!(observer)
  }

  /// Calls `body` with each element and returns `true` when the whole sequence is known
  /// without subscribing (`just`, `empty`, `of` and `from` on `CurrentThreadScheduler`);
  /// otherwise returns `false` without calling `body`.
  ///
  /// Consumers inside the package use it to skip a per-element-stream subscription: the
  /// elements are delivered at once and in order, then the sequence counts as completed.
  ///
  /// - Parameter respectingTrampoline: When `false`, a trampoline running on this thread,
  ///   which would defer a subscription to `of`/`from`, is not consulted. When `true`, such a
  ///   sequence counts as synchronous only while no trampoline runs here, so that its elements
  ///   keep the order a subscription would give them.
  @usableFromInline
  package func forEachSynchronousElement(
    respectingTrampoline: Bool = false, _ body: (Element) -> Void
  ) -> Bool {
    false
  }

  /// Like ``forEachSynchronousElement(respectingTrampoline:_:)``, but asks `isWanted` before
  /// pulling each element after the first and stops once it returns `false` (the consumer is
  /// done), so a long or infinite sequence (`from` a lazy sequence) is not iterated any
  /// further. A one-element sequence never asks.
  ///
  /// - Returns: Whether the sequence was synchronous; if not, nothing was called.
  @usableFromInline
  package func forEachSynchronousElement(
    respectingTrampoline: Bool, while isWanted: () -> Bool, _ body: (Element) -> Void
  ) -> Bool {
    false
  }

  /// Returns `self`.
  @inlinable
  public final func asObservable() -> Observable<Element> { self }
}
