/// How a ``CombineSink`` pairs its sources' elements: `combineLatest` keeps the latest element
/// of each source, `zip` buffers them and pairs them by position.
@usableFromInline
struct CombineMode: Sendable {
  /// Whether each source's elements are queued and consumed by a snapshot (`zip`), rather
  /// than the latest one kept and reused (`combineLatest`).
  @usableFromInline let buffers: Bool
  /// Whether an element that can never be combined (every other source completed while one
  /// holds nothing) completes the result.
  @usableFromInline let completesWhenUnpairable: Bool
  /// Whether an empty collection of sources emits one (empty) snapshot before completing.
  @usableFromInline let emitsForNoSources: Bool

  /// `combineLatest`, fixed arity or collection (RxSwift 6 rules).
  @inlinable
  static var latest: CombineMode {
    CombineMode(buffers: false, completesWhenUnpairable: true, emitsForNoSources: true)
  }

  /// The fixed-arity `zip`: completes only when every source completed.
  @inlinable
  static var zip: CombineMode {
    CombineMode(buffers: true, completesWhenUnpairable: false, emitsForNoSources: false)
  }

  /// `zip` over a collection: also completes when an element can never be paired.
  @inlinable
  static var zipCollection: CombineMode {
    CombineMode(buffers: true, completesWhenUnpairable: true, emitsForNoSources: false)
  }

  @inlinable
  init(buffers: Bool, completesWhenUnpairable: Bool, emitsForNoSources: Bool) {
    self.buffers = buffers
    self.completesWhenUnpairable = completesWhenUnpairable
    self.emitsForNoSources = emitsForNoSources
  }
}

/// What a ``CombineSink`` holds of one source: its latest element, or its queued ones.
@usableFromInline
struct CombineSlot<Value> {
  @usableFromInline var latest: Value?
  @usableFromInline var queue = Queue<Value>()

  @inlinable
  init() {}

  /// Keeps `value` as the latest element, or queues it when `mode` buffers.
  @inlinable
  mutating func put(_ value: Value, _ mode: CombineMode) {
    if mode.buffers {
      queue.append(value)
    } else {
      latest = value
    }
  }

  /// The element for a snapshot: the latest one, or the oldest queued one (removed).
  @inlinable
  mutating func take(_ mode: CombineMode) -> Value {
    mode.buffers ? queue.popFirst()! : latest!
  }
}

/// The lock-guarded state of a ``CombineSink``: one slot per source (`Slots`, a tuple or an
/// array of ``CombineSlot``), how many elements each holds, and how many hold one.
@usableFromInline
struct CombineState<Slots> {
  @usableFromInline var slots: Slots
  @usableFromInline var counts: [Int]
  @usableFromInline var filled = 0

  @inlinable
  init(slots: Slots, arity: Int) {
    self.slots = slots
    counts = Array(repeating: 0, count: arity)
  }
}

/// The one core of `combineLatest` and `zip`, for every arity and for collections: source
/// handlers store an element into their slot under the lock; once every slot holds one, a
/// `Snapshot` (one element per source) is taken and delivered through the result selector,
/// serially and outside the lock (``FanInSink``).
///
/// The fixed arities and the collection forms differ only in how `Slots` and `Snapshot` are
/// spelled (a tuple, or an array) and are thin wrappers over this class.
@usableFromInline
final class CombineSink<Slots, Snapshot, Element>:
  MultiSourceSink<Snapshot, Element, CombineState<Slots>>, @unchecked Sendable
{
  // Safety: all mutable state is the inherited `state`, guarded by `lock`; `mode` and `take`
  // are immutable, and `take` is library code (no user code), so it may run under the lock.
  @usableFromInline let mode: CombineMode
  @usableFromInline let take: (inout Slots) -> Snapshot

  @inlinable
  init(
    _ observer: AnyObserver<Element>, _ mode: CombineMode, arity: Int, slots: Slots,
    take: @escaping (inout Slots) -> Snapshot,
    select: @escaping (Snapshot) throws -> Element
  ) {
    self.mode = mode
    self.take = take
    super.init(
      observer, arity: arity, extra: CombineState(slots: slots, arity: arity), transform: select)
  }

  /// Handles source `index`'s `event`; `store` puts an element into that source's slot.
  @inlinable
  func on<Value>(_ event: Event<Value>, at index: Int, store: (inout Slots, Value) -> Void) {
    lock.lock()
    if isStoppedLocked {
      lock.unlock()
      return
    }
    switch event {
    case .next(let value):
      store(&state.extra.slots, value)
      let count = state.extra.counts[index]
      if count == 0 {
        state.extra.filled += 1
        state.extra.counts[index] = 1
      } else if mode.buffers {
        state.extra.counts[index] = count + 1
      }
      if state.extra.filled == arity {
        let snapshot = take(&state.extra.slots)
        if mode.buffers { consumeOneEachLocked() }
        onLocked(.next(snapshot))
      } else if mode.completesWhenUnpairable
        && state.doneCount - (state.isDone[index] ? 1 : 0) == arity - 1
      {
        // Every other source completed, and one of them holds nothing: no more results.
        onLocked(.completed)
      } else {
        lock.unlock()
      }
    case .error(let error):
      onLocked(.error(error))
    case .completed:
      completedLocked(at: index)
    }
  }

  /// Counts the element each slot gave to a buffered snapshot. Call with the lock held.
  @inlinable
  func consumeOneEachLocked() {
    for position in 0..<arity {
      state.extra.counts[position] -= 1
      if state.extra.counts[position] == 0 { state.extra.filled -= 1 }
    }
  }

  /// Finishes when there are no sources: `combineLatest` emits the selector's result for no
  /// elements first, `zip` only completes. Returns `self` as the disposable.
  @inlinable
  func finishSubscribingCombined() -> Disposable {
    if arity == 0 && mode.emitsForNoSources {
      lock.lock()
      onLocked(.next(take(&state.extra.slots)))
    }
    return finishSubscribing()
  }
}
