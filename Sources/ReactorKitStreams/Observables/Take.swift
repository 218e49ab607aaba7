/// Whether ``ObservableType/take(until:behavior:)`` and ``ObservableType/take(while:behavior:)``
/// also emit the element that ends the sequence.
public enum TakeBehavior: Sendable {
  /// Emit the element that ends the sequence, then complete.
  case inclusive
  /// Complete without emitting the element that ends the sequence.
  case exclusive
}

extension ObservableType {
  /// The first `count` elements, then completion.
  ///
  /// With a count of zero the source is not subscribed at all.
  ///
  /// - Parameter count: How many elements to take (at least 0).
  /// - Returns: At most `count` elements of the source.
  @inlinable
  public func take(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "take(_:) needs a count of at least 0.")
    if count == 0 { return Observable<Element>.empty() }
    return sinking { sink in
      let remaining = OperatorState(count)
      return { event in
        sink.receive(event) { element in
          guard remaining.value > 0 else { return }
          remaining.value -= 1
          sink.forwardNext(element)
          if remaining.value == 0 { sink.forwardTerminal(.completed) }
        }
      }
    }
  }

  /// The elements until `predicate` returns `true` for one, then completion.
  ///
  /// - Parameters:
  ///   - predicate: Tells whether an element ends the sequence; a thrown error ends it with
  ///     that error.
  ///   - behavior: Whether the ending element is emitted too (default: not).
  /// - Returns: The elements before the first one matching `predicate`.
  @inlinable
  public func take(
    until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    sinking { sink in
      { event in
        sink.receive(event) { element in
          let ends = try predicate(element)
          if !ends || behavior == .inclusive { sink.forwardNext(element) }
          if ends { sink.forwardTerminal(.completed) }
        }
      }
    }
  }

  /// The elements as long as `predicate` returns `true`, then completion.
  ///
  /// - Parameters:
  ///   - predicate: Tells whether to keep taking; a thrown error ends the sequence with it.
  ///   - behavior: Whether the first element failing `predicate` is emitted too (default:
  ///     not).
  /// - Returns: The leading elements matching `predicate`.
  @inlinable
  public func take(
    while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    take(until: { try !predicate($0) }, behavior: behavior)
  }

  /// The elements until `other` emits an element; then the result completes.
  ///
  /// An error from `other` ends the result with that error; `other` completing without an
  /// element changes nothing. `other` is subscribed first, so an `other` that emits at once
  /// lets nothing through. Delivery is serial even when both emit from different threads.
  ///
  /// - Parameter other: The sequence whose first element stops the result.
  /// - Returns: The elements of this sequence until `other` emits.
  @inlinable
  public func take<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      GateSink<Element, Other.Element>(observer, .take).run(source, other.asObservable())
    }
  }

  /// The elements of the first `duration`, then completion (RxSwift's time-based `take`).
  ///
  /// - Parameters:
  ///   - duration: How long to forward elements, from subscription.
  ///   - scheduler: Runs the timer.
  /// - Returns: The elements emitted during `duration`.
  @inlinable
  public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
    take(until: Observable<Int>.timer(duration, scheduler: scheduler))
  }
}
