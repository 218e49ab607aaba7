/// A sequence of the elements of one group made by ``ObservableType/groupBy(keySelector:)``,
/// with the key they share.
public struct GroupedObservable<Key, Element>: ObservableType {
  /// The key every element of the group has.
  public let key: Key
  private let source: Observable<Element>

  /// Creates a group of `source`'s elements for `key`.
  public init(key: Key, source: Observable<Element>) {
    self.key = key
    self.source = source
  }

  /// Subscribes `observer` to the group's elements from now on.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    source.subscribe(observer)
  }

  /// The group as an ``Observable``.
  public func asObservable() -> Observable<Element> { source }
}

extension GroupedObservable: Sendable where Key: Sendable {}

extension ObservableType {
  /// Splits the sequence into groups of elements that share a key: emits a
  /// ``GroupedObservable`` the first time a key appears, and each element (that one
  /// included) on its group.
  ///
  /// A group is hot: it forwards the elements that arrive while it has subscribers, so
  /// subscribe to it when it is emitted (subscribing inside `onNext` sees its first
  /// element). The source's completion or error ends every group, then the result. The
  /// source stays subscribed as long as the result or any group has a subscriber; disposing
  /// the result alone keeps the groups going. An error thrown by `keySelector` ends the
  /// groups and the result with it.
  ///
  /// - Parameter keySelector: The key of an element.
  /// - Returns: The groups, in the order their keys first appeared.
  /// - Complexity: One subject per key, kept until the source ends.
  @inlinable
  public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key)
    -> Observable<GroupedObservable<Key, Element>>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let subscription = SingleAssignmentDisposable()
      // The source subscription ends when the result and every group subscription are gone.
      let refCount = RefCountDisposable(disposable: subscription)
      let groups = OperatorState([Key: PublishSubject<Element>]())
      sink.setUpstream(refCount)

      func end(_ event: Event<Element>) {
        let subjects = groups.value.values
        groups.value = [:]
        for subject in subjects { subject.on(event) }
        sink.forwardTerminal(from: event)
        subscription.dispose()
      }

      subscription.setDisposable(
        source.subscribe(
          AnyObserver { event in
            switch event {
            case .next(let element):
              let key: Key
              do {
                key = try keySelector(element)
              } catch {
                end(.error(error))
                return
              }
              if let subject = groups.value[key] {
                subject.on(.next(element))
                return
              }
              let subject = PublishSubject<Element>()
              groups.value[key] = subject
              let group = Observable<Element> { groupObserver in
                let release = refCount.retain()
                let inner = subject.subscribe(groupObserver)
                return Disposables.create(inner, release)
              }
              sink.forwardNext(GroupedObservable(key: key, source: group))
              subject.on(.next(element))
            case .error, .completed:
              end(event)
            }
          }))
      return sink
    }
  }
}
