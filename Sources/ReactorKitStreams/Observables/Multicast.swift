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
  public func multicast<Subject: SubjectType>(_ subject: Subject)
    -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element
  {
    MulticastConnectable(source: asObservable(), makeSubject: { subject })
  }

  /// A connectable sequence that pushes the source's events into a subject made by
  /// `makeSubject`; a new subject is made for each connection after the previous one ended
  /// (by disposal or by a terminal event).
  ///
  /// - Parameter makeSubject: Makes the subject of a connection.
  /// - Returns: The connectable sequence.
  public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
    -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element
  {
    MulticastConnectable(source: asObservable(), makeSubject: makeSubject)
  }

  /// A connectable sequence that shares one subscription through a ``PublishSubject``.
  ///
  /// - Returns: The connectable sequence; call `connect()` to start it.
  public func publish() -> ConnectableObservable<Element> {
    multicast(PublishSubject())
  }

  /// A connectable sequence that shares one subscription through a ``ReplaySubject`` that
  /// replays up to `bufferSize` elements to each new observer.
  ///
  /// - Parameter bufferSize: The number of elements to replay.
  /// - Returns: The connectable sequence; call `connect()` to start it.
  public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    multicast(ReplaySubject.create(bufferSize: bufferSize))
  }

  /// A connectable sequence that shares one subscription through a ``ReplaySubject`` that
  /// replays every element to each new observer.
  ///
  /// - Complexity: Memory grows with the number of elements.
  /// - Returns: The connectable sequence; call `connect()` to start it.
  public func replayAll() -> ConnectableObservable<Element> {
    multicast(ReplaySubject.createUnbound())
  }
}

/// The connectable sequence behind `multicast`: holds the current subject and connection.
private final class MulticastConnectable<Subject: SubjectType>: ConnectableObservable<
  Subject.Element
>, @unchecked Sendable
{
  // Safety: `subject` and `connection` are guarded by `lock`; the source and factory are
  // immutable.
  typealias Source = Observable<Subject.Observer.Element>

  private let source: Source
  private let makeSubject: () -> Subject
  private let lock = Lock()
  private var subject: Subject?
  private var connection: MulticastConnection<Subject>?

  init(source: Source, makeSubject: @escaping () -> Subject) {
    self.source = source
    self.makeSubject = makeSubject
    super.init()
  }

  /// The subject of the current (or next) connection. Call with the lock held.
  private func currentSubjectLocked() -> Subject {
    if let subject { return subject }
    let made = makeSubject()
    subject = made
    return made
  }

  override func connect() -> Disposable {
    lock.lock()
    if let connection {
      lock.unlock()
      return connection
    }
    let made = MulticastConnection(
      parent: self, observer: currentSubjectLocked().asObserver())
    connection = made
    lock.unlock()
    made.subscription.setDisposable(source.subscribe(made))
    return made
  }

  override func subscribeObserver(_ observer: AnyObserver<Subject.Element>) -> Disposable {
    let subject = lock.withLock { currentSubjectLocked() }
    return subject.subscribe(observer)
  }

  /// Forgets `ended` if it is the current connection, so the next one starts afresh.
  fileprivate func connectionEnded(_ ended: MulticastConnection<Subject>) {
    lock.withLock {
      guard connection === ended else { return }
      connection = nil
      subject = nil
    }
  }
}

/// One connection of a ``MulticastConnectable``: forwards the source into the subject until
/// disposed or terminated.
private final class MulticastConnection<Subject: SubjectType>: ObserverType, Cancelable,
  @unchecked Sendable
{
  // Safety: `parent` is guarded by `lock`; `subscription` synchronises itself; `observer`
  // is immutable and receives the source's serial events.
  typealias Element = Subject.Observer.Element

  private let lock = Lock()
  private var parent: MulticastConnectable<Subject>?
  private let observer: Subject.Observer
  let subscription = SingleAssignmentDisposable()

  init(parent: MulticastConnectable<Subject>, observer: Subject.Observer) {
    self.parent = parent
    self.observer = observer
    Resources.incrementTotal()
  }

  deinit { Resources.decrementTotal() }

  var isDisposed: Bool { lock.withLock { parent == nil } }

  func on(_ event: Event<Element>) {
    guard !isDisposed else { return }
    if event.isStopEvent { dispose() }
    observer.on(event)
  }

  func dispose() {
    let parent = lock.withLock {
      let parent = self.parent
      self.parent = nil
      return parent
    }
    guard let parent else { return }
    parent.connectionEnded(self)
    subscription.dispose()
  }
}
