/// An observable sequence that shares one subscription to its source among all its
/// observers, starting it only when ``connect()`` is called.
public protocol ConnectableObservableType: ObservableType {
  /// Connects to the source: subscribed observers receive its events from now on.
  ///
  /// Calling `connect()` while connected returns the current connection.
  ///
  /// - Returns: A disposable that disconnects; observers stop receiving events.
  func connect() -> Disposable
}

/// An ``Observable`` that can be connected to and disconnected from its source; see
/// ``ConnectableObservableType``.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType,
  @unchecked Sendable
{
  // Safety: subclasses synchronise their own state.

  @usableFromInline
  override init() { super.init() }

  /// Connects to the source; see ``ConnectableObservableType/connect()``.
  public func connect() -> Disposable {
    fatalError("ConnectableObservable.connect() is implemented by subclasses.")
  }
}

extension ObservableType {
  /// A connectable sequence that pushes the source's events into `subject` while
  /// connected; observers subscribe to `subject`.
  ///
  /// The same subject serves every connection, so a terminated subject stays terminated.
  ///
  /// - Parameter subject: The subject the source's events go through.
  /// - Returns: The connectable sequence.
  @inlinable
  public func multicast<Subject: SubjectType>(_ subject: Subject)
    -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element
  {
    MulticastConnectable(source: asObservable(), makeSubject: { subject }, freshSubjects: false)
  }

  /// A connectable sequence that pushes the source's events into a subject made by
  /// `makeSubject`; a new subject is made for each connection after the previous one ended
  /// (by disposal or by a terminal event).
  ///
  /// - Parameter makeSubject: Makes the subject of a connection.
  /// - Returns: The connectable sequence.
  @inlinable
  public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
    -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element
  {
    MulticastConnectable(source: asObservable(), makeSubject: makeSubject, freshSubjects: true)
  }

  /// For each subscription, multicasts the source through a subject made by
  /// `subjectSelector` into the sequence `selector` builds from it, so the selector can use
  /// the source several times with one subscription to it.
  ///
  /// The selector's sequence is subscribed first, then the source is connected; the result
  /// ends with the selector's sequence, which disconnects the source. An error thrown by
  /// either closure fails the result.
  ///
  /// - Parameters:
  ///   - subjectSelector: Makes the subject of one subscription.
  ///   - selector: Builds the result from the multicast source.
  /// - Returns: The selector's sequence.
  @inlinable
  public func multicast<Subject: SubjectType, Result>(
    _ subjectSelector: @escaping () throws -> Subject,
    selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
  ) -> Observable<Result> where Subject.Observer.Element == Element {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let connection = SingleAssignmentDisposable()
      sink.extra = connection
      let connectable: ConnectableObservable<Subject.Element>
      let selected: Observable<Result>
      do {
        connectable = source.multicast(try subjectSelector())
        selected = try selector(connectable.asObservable())
      } catch {
        connection.dispose()
        return sink.run(Observable<Result>.error(error)) { sink.forward($0) }
      }
      let subscription = sink.run(selected) { sink.forward($0) }
      connection.setDisposable(connectable.connect())
      return subscription
    }
  }

  /// A connectable sequence that shares one subscription through a ``PublishSubject``; a
  /// new subject serves each connection after the previous one ended, as in RxSwift.
  ///
  /// - Returns: The connectable sequence; call `connect()` to start it.
  @inlinable
  public func publish() -> ConnectableObservable<Element> {
    multicast(makeSubject: { PublishSubject() })
  }

  /// A connectable sequence that shares one subscription through a ``ReplaySubject`` that
  /// replays up to `bufferSize` elements to each new observer.
  ///
  /// Each connection after the previous one ended (by disposal or by a terminal event) gets
  /// a new subject, as in RxSwift: observers of an old connection receive nothing from a new
  /// one, and a new connection replays only its own elements.
  ///
  /// - Parameter bufferSize: The number of elements to replay.
  /// - Returns: The connectable sequence; call `connect()` to start it.
  @inlinable
  public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
  }

  /// A connectable sequence that shares one subscription through a ``ReplaySubject`` that
  /// replays every element to each new observer; a new subject serves each connection, as
  /// with ``replay(_:)``.
  ///
  /// - Complexity: Memory grows with the number of elements.
  /// - Returns: The connectable sequence; call `connect()` to start it.
  @inlinable
  public func replayAll() -> ConnectableObservable<Element> {
    multicast(makeSubject: { ReplaySubject.createUnbound() })
  }
}

/// The connectable sequence behind `multicast`: holds the current subject and connection.
@usableFromInline
final class MulticastConnectable<Subject: SubjectType>: ConnectableObservable<Subject.Element>,
  @unchecked Sendable
{
  // Safety: `subject` and `connection` are guarded by `lock`; the source and factory are
  // immutable.
  @usableFromInline typealias Source = Observable<Subject.Observer.Element>

  /// Subscribes a connection to the source. Built in the initialiser, which is specialised
  /// in the caller's module, so the per-element path is specialised even though
  /// `connect()` is reached through dynamic dispatch.
  @usableFromInline let subscribeSource: (MulticastConnection<Subject>) -> Disposable
  @usableFromInline let makeSubject: () -> Subject
  @usableFromInline let lock = Lock()
  @usableFromInline var subject: Subject?
  @usableFromInline var connection: MulticastConnection<Subject>?
  /// Whether each connection gets a subject of its own (see ``MulticastConnection``).
  @usableFromInline let freshSubjects: Bool

  @inlinable
  init(source: Source, makeSubject: @escaping () -> Subject, freshSubjects: Bool) {
    subscribeSource = { connection in
      source.subscribe(AnyObserver { event in connection.on(event) })
    }
    self.makeSubject = makeSubject
    self.freshSubjects = freshSubjects
    super.init()
  }

  /// The subject of the current (or next) connection. Call with the lock held.
  @inlinable
  func currentSubjectLocked() -> Subject {
    if let subject { return subject }
    let made = makeSubject()
    subject = made
    return made
  }

  @inlinable
  override func connect() -> Disposable {
    lock.lock()
    if let connection {
      lock.unlock()
      return connection
    }
    let made = MulticastConnection(
      parent: self, observer: currentSubjectLocked().asObserver(), ownsSubject: freshSubjects)
    connection = made
    lock.unlock()
    let subscription = subscribeSource(made)
    made.subscription.setDisposable(subscription)
    SubscriptionLink.register(made, asHolderOf: subscription)
    return made
  }

  @inlinable
  override func subscribeObserver(_ observer: AnyObserver<Subject.Element>) -> Disposable {
    let subject = lock.withLock { currentSubjectLocked() }
    return subject.subscribe(observer)
  }

  /// Forgets `ended` if it is the current connection, so the next one starts afresh.
  @inlinable
  func connectionEnded(_ ended: MulticastConnection<Subject>) {
    lock.withLock {
      guard connection === ended else { return }
      connection = nil
      subject = nil
    }
  }
}

/// One connection of a ``MulticastConnectable``: forwards the source into the subject until
/// disposed or terminated.
///
/// When the source lets go of the connection without a terminal event (a subject freed), the
/// connection ends, and a subject made for this connection alone releases its observers
/// (see ``SubscriptionLink``), so nothing is left waiting on it.
@usableFromInline
final class MulticastConnection<Subject: SubjectType>: SubscriptionLink, ObserverType,
  Cancelable, @unchecked Sendable
{
  // Safety: `parent` is guarded by `lock`; `disposed` is atomic; `subscription`
  // synchronises itself; `observer` is immutable and receives the source's serial events.
  @usableFromInline typealias Element = Subject.Observer.Element

  /// The storage of ``disposed``; an ``AtomicSlot``, so the first stored property after the
  /// link's (slot 0, see ``SubscriptionLink``): slot 1.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case disposed = 1 }
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline let lock = Lock()
  @usableFromInline var parent: MulticastConnectable<Subject>?
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }
  @usableFromInline let observer: Subject.Observer
  @usableFromInline let subscription = SingleAssignmentDisposable()
  /// Whether the subject was made for this connection alone.
  @usableFromInline let ownsSubject: Bool

  @inlinable
  init(
    parent: MulticastConnectable<Subject>, observer: Subject.Observer, ownsSubject: Bool
  ) {
    self.parent = parent
    self.observer = observer
    self.ownsSubject = ownsSubject
    super.init()
    Resources.incrementTotal()
  }

  @usableFromInline
  override func upstreamReleased() {
    dispose()
    if ownsSubject { (observer as? any ObserverReleasing)?.releaseObservers() }
  }

  deinit { Resources.decrementTotal() }

  @inlinable
  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  @inlinable
  func on(_ event: Event<Element>) {
    guard !disposed.load(ordering: .acquiring) else { return }
    if event.isStopEvent { dispose() }
    observer.on(event)
  }

  @inlinable
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let parent = lock.withLock {
      let parent = self.parent
      self.parent = nil
      return parent
    }
    parent?.connectionEnded(self)
    subscription.dispose()
  }
}
