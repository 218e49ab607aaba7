/// Holds one disposable that is assigned later; disposing before assignment disposes the
/// assigned one as soon as it arrives.
///
/// Lock-free: every operator subscription owns one, so it holds no mutex.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
  // Safety: `state` is atomic. `current` is written by `setDisposable` before it publishes
  // the assigned bit (release) and read or cleared only by whichever of `setDisposable` and
  // `dispose` sets the second of the two bits (acquire), so exactly one thread touches it
  // after assignment.

  /// The storage of ``state`` and ``current``: an ``AtomicSlot`` and an ``ExclusiveSlot``, so
  /// the first stored properties.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case state
    case current
  }
  @usableFromInline var stateSlot = AtomicSlot(0)
  @usableFromInline var currentSlot = ExclusiveSlot<Disposable?>(nil)

  @usableFromInline static var assignedBit: Int { 1 }
  @usableFromInline static var disposedBit: Int { 2 }

  @inlinable var state: UnsafeAtomic<Int> { UnsafeAtomic(Slots.state, of: self) }
  /// The assigned disposable (see the safety note above).
  @inlinable var current: ExclusiveSlotView<Disposable?> {
    ExclusiveSlotView(Slots.current, of: self)
  }

  /// Creates an empty container.
  @inlinable
  public init() {}

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

  /// Assigns the disposable. Assigning twice is a programming error.
  ///
  /// If the container was already disposed, `disposable` is disposed at once.
  @inlinable
  public func setDisposable(_ disposable: Disposable) {
    precondition(
      state.load(ordering: .relaxed) & Self.assignedBit == 0,
      "SingleAssignmentDisposable: a disposable was already assigned.")
    current.value = disposable
    let previous = state.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
    precondition(
      previous & Self.assignedBit == 0,
      "SingleAssignmentDisposable: a disposable was already assigned.")
    if previous & Self.disposedBit != 0 {
      current.value = nil
      disposable.dispose()
    }
  }

  /// Disposes the assigned disposable (now or when it is assigned).
  @inlinable
  public func dispose() {
    let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
    guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
    let toDispose = current.take()
    toDispose?.dispose()
  }
}

/// Holds a replaceable disposable: assigning a new one disposes the previous one.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
  // Safety: all state is guarded by `lock`.
  private let lock = Lock()
  private var current: Disposable?
  private var disposed = false

  /// Creates an empty container.
  public init() {}

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { lock.withLock { disposed } }

  /// The current disposable. Setting it disposes the previous one; after ``dispose()`` a new
  /// value is disposed at once.
  public var disposable: Disposable {
    get { lock.withLock { current ?? Disposables.create() } }
    set {
      lock.lock()
      if disposed {
        lock.unlock()
        newValue.dispose()
        return
      }
      let old = current
      current = newValue
      lock.unlock()
      old?.dispose()
    }
  }

  /// Disposes the current disposable and every later one.
  public func dispose() {
    // The flag is read and set inside the closure, under the lock: passing it `inout` to a
    // helper would begin the access before the lock is taken (a race to the thread sanitizer).
    let taken = lock.withLock { () -> Disposable? in
      if disposed { return nil }
      disposed = true
      return current.take()
    }
    taken?.dispose()
  }
}
