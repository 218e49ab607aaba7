extension PrimitiveSequence {
  /// Makes a resource for each subscription, subscribes to the trait built from it, and
  /// disposes the resource when the subscription ends; see `using` on `ObservableType`.
  ///
  /// - Parameters:
  ///   - resourceFactory: Makes the subscription's resource.
  ///   - primitiveSequenceFactory: Makes the trait that uses the resource.
  /// - Returns: The trait's events.
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: Observable.using(resourceFactory) { try primitiveSequenceFactory($0).source })
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: RxAbstractInteger {
  /// A maybe of `0` after `dueTime`.
  public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> Maybe<Element>
  {
    Maybe(raw: Observable.timer(dueTime, scheduler: scheduler))
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
  /// Runs `second` after this completable completed; an error skips it.
  ///
  /// - Parameter second: The completable to run next.
  /// - Returns: A completable that completes when both completed.
  public func concat(_ second: Completable) -> Completable {
    Completable.concat(primitiveSequence, second)
  }
}
