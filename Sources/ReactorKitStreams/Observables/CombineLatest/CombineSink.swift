/// How a ``CombineSink`` pairs its sources' elements: `combineLatest` keeps the latest element
/// of each source, `zip` buffers them and pairs them by position. A type rather than a value,
/// so that the specialised per-element path has no branches on it.
@usableFromInline
protocol CombineMode {
  /// Whether each source's elements are queued and consumed by a snapshot (`zip`), rather
  /// than the latest one kept and reused (`combineLatest`).
  static var buffers: Bool { get }
  /// Whether an element that can never be combined (every other source completed while one
  /// holds nothing) completes the result.
  static var completesWhenUnpairable: Bool { get }
  /// Whether an empty collection of sources emits one (empty) snapshot before completing.
  static var emitsForNoSources: Bool { get }
}

/// `combineLatest`, fixed arity or collection (RxSwift 6 rules).
@usableFromInline
enum CombineLatestMode: CombineMode {
  @inlinable static var buffers: Bool { false }
  @inlinable static var completesWhenUnpairable: Bool { true }
  @inlinable static var emitsForNoSources: Bool { true }
}

/// The fixed-arity `zip`: completes only when every source completed.
@usableFromInline
enum ZipMode: CombineMode {
  @inlinable static var buffers: Bool { true }
  @inlinable static var completesWhenUnpairable: Bool { false }
  @inlinable static var emitsForNoSources: Bool { false }
}

/// `zip` over a collection: also completes when an element can never be paired.
@usableFromInline
enum ZipCollectionMode: CombineMode {
  @inlinable static var buffers: Bool { true }
  @inlinable static var completesWhenUnpairable: Bool { true }
  @inlinable static var emitsForNoSources: Bool { false }
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
  mutating func put<Mode: CombineMode>(_ value: Value, _ mode: Mode.Type) {
    if Mode.buffers {
      queue.append(value)
    } else {
      latest = value
    }
  }

  /// The element for a snapshot: the latest one, or the oldest queued one (removed).
  @inlinable
  mutating func take<Mode: CombineMode>(_ mode: Mode.Type) -> Value {
    Mode.buffers ? queue.popFirst()! : latest!
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
final class CombineSink<Mode: CombineMode, Slots, Snapshot, Element>:
  MultiSourceSink<Snapshot, Element, CombineState<Slots>>, @unchecked Sendable
{
  // Safety: all mutable state is the inherited `state`, guarded by `lock`; `take` is
  // immutable library code (no user code), so it may run under the lock.
  @usableFromInline let take: (inout Slots) -> Snapshot

  @inlinable
  init(
    _ observer: AnyObserver<Element>, _ mode: Mode.Type, arity: Int, slots: Slots,
    take: @escaping (inout Slots) -> Snapshot,
    select: @escaping (Snapshot) throws -> Element
  ) {
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
      } else if Mode.buffers {
        state.extra.counts[index] = count + 1
      }
      if state.extra.filled == arity {
        let snapshot = take(&state.extra.slots)
        if Mode.buffers { consumeOneEachLocked() }
        onAndUnlock(.next(snapshot))
      } else if Mode.completesWhenUnpairable
        && state.doneCount - (state.isDone[index] ? 1 : 0) == arity - 1
      {
        // Every other source completed, and one of them holds nothing: no more results.
        onAndUnlock(.completed)
      } else {
        lock.unlock()
      }
    case .error(let error):
      onAndUnlock(.error(error))
    case .completed:
      completedAndUnlock(at: index)
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
    if arity == 0 && Mode.emitsForNoSources {
      lock.lock()
      onAndUnlock(.next(take(&state.extra.slots)))
    }
    return finishSubscribing()
  }
}
