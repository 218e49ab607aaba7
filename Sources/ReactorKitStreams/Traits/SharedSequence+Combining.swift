import Foundation

// Combining and timing operators of `Driver` and `Signal`, as in RxCocoa: every timed
// operator runs on the strategy's scheduler, and every result is shared again. `zip` and
// `combineLatest` are generated, in `SharedSequence+Zip.swift` and
// `SharedSequence+CombineLatest.swift`.

extension SharedSequence {
  /// Subscribes to the sequences one after another.
  public static func concat<Sources: Sequence>(_ sources: Sources)
    -> SharedSequence<SharingStrategy, Element>
  where Sources.Element == SharedSequence<SharingStrategy, Element> {
    SharedSequence(Observable.concat(sources.map { $0.asObservable() }))
  }

  /// Merges the elements of `sources`.
  public static func merge<Sources: Collection>(_ sources: Sources)
    -> SharedSequence<SharingStrategy, Element>
  where Sources.Element == SharedSequence<SharingStrategy, Element> {
    SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
  }
}

extension SharedSequenceConvertibleType {
  /// Emits at most one element per `dueTime` on the strategy's scheduler; see
  /// ``ObservableType/throttle(_:latest:scheduler:)``.
  public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(
      asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
  }

  /// Emits an element only after `dueTime` passed without another one; see
  /// ``ObservableType/debounce(_:scheduler:)``.
  public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
  }

  /// Delays every element and the completion by `dueTime`; see
  /// ``ObservableType/delay(_:scheduler:)``.
  public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
  }

  /// Drops the first `count` elements.
  public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().skip(count))
  }

  /// Combines each element with the latest element of `second`; elements before `second`'s
  /// first are dropped.
  public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(
    _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result
  ) -> SharedSequence<SharingStrategy, Result> {
    SharedSequence(asObservable().withLatestFrom(second, resultSelector: resultSelector))
  }

  /// Replaces each element with the latest element of `second`.
  public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second)
    -> SharedSequence<SharingStrategy, Second.Element>
  {
    SharedSequence(asObservable().withLatestFrom(second))
  }

  /// Drops elements whose key `comparer` finds equal to the key of the element before them.
  public func distinctUntilChanged<Key>(
    _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
  }

  /// Maps each element to a shared sequence and subscribes to them one after another.
  public func concatMap<Sharing: SharedSequenceConvertibleType>(
    _ selector: @escaping (Element) -> Sharing
  ) -> SharedSequence<SharingStrategy, Sharing.Element>
  where Sharing.SharingStrategy == SharingStrategy {
    SharedSequence(asObservable().concatMap { selector($0).asObservable() })
  }

  /// Prints every event; see ``ObservableType/debug(_:trimOutput:file:line:function:)``.
  public func debug(
    _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file,
    line: UInt = #line, function: String = #function
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      raw: asObservable().debug(
        identifier, trimOutput: trimOutput, file: file, line: line, function: function))
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  /// Accepts each element into `relays`. Call on the main thread.
  public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`. Call on the main thread.
  public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`. Call on the main thread.
  public func drive(_ relays: PublishRelay<Element?>...) -> Disposable {
    drive(onNext: { element in relays.forEach { $0.accept(element) } })
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  /// Accepts each element into `relays`.
  public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Accepts each element, as an optional, into `relays`.
  public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
    emit(onNext: { element in relays.forEach { $0.accept(element) } })
  }
}
