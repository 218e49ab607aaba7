extension ObservableType {
  /// Emits the latest element of this sequence each time `sampler` emits, if one arrived
  /// since the previous sample (or `defaultValue` when none did and it is not `nil`).
  ///
  /// The sampler completing samples once more. When this sequence completes, the result
  /// completes at the next sample; an error from either ends it. Delivery is serial even when
  /// both emit from different threads.
  ///
  /// - Parameters:
  ///   - sampler: Tells when to sample.
  ///   - defaultValue: Emitted on a sample when no new element arrived; `nil` emits nothing.
  /// - Returns: The sampled elements.
  // Not inlinable: paced by the sampler; its sink stays internal.
  public func sample<Sampler: ObservableConvertibleType>(
    _ sampler: Sampler, defaultValue: Element? = nil
  ) -> Observable<Element> {
    let source = asObservable()
    let sampler = sampler.asObservable()
    return Observable { observer in
      SampleSink<Element, Sampler.Element>(observer, defaultValue: defaultValue)
        .run(source, sampler)
    }
  }
}

/// The latest unsampled element and whether the source completed.
struct SampleState<Element> {
  var element: Element?
  var sourceCompleted = false
}

/// Keeps the source's latest element and emits it when the sampler ticks.
final class SampleSink<Element, Sampler>: TwoSourceSink<Element, Element, SampleState<Element>>,
  @unchecked Sendable
{
  // Safety: `state` (inherited) is guarded by `lock`; `defaultValue` is immutable; the
  // disposables synchronise themselves.
  let defaultValue: Element?

  init(_ observer: AnyObserver<Element>, defaultValue: Element?) {
    self.defaultValue = defaultValue
    super.init(observer, state: SampleState()) { $0 }
  }

  func run(_ source: Observable<Element>, _ sampler: Observable<Sampler>) -> Disposable {
    run(
      source, sampler, secondFirst: false, onFirst: { self.sourceOn($0) },
      onSecond: { self.samplerOn($0) })
  }

  func sourceOn(_ event: Event<Element>) {
    lock.lock()
    switch event {
    case .next(let element):
      state.element = element
      lock.unlock()
    case .error:
      onAndUnlock(event)
    case .completed:
      state.sourceCompleted = true
      lock.unlock()
      firstSubscription.dispose()
    }
  }

  func samplerOn(_ event: Event<Sampler>) {
    lock.lock()
    if case .error(let error) = event {
      onAndUnlock(.error(error))
      return
    }
    let sample = state.element ?? defaultValue
    state.element = nil
    let completes = state.sourceCompleted
    if let sample {
      onAndUnlock(.next(sample))
      if completes { on(.completed) }
    } else if completes {
      onAndUnlock(.completed)
    } else {
      lock.unlock()
    }
  }
}
