/// Holds one disposable that is assigned later; disposing before assignment disposes the
/// assigned one as soon as it arrives.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
  // Safety: all state is guarded by `lock`.
  @usableFromInline let lock = Lock()
  @usableFromInline var current: Disposable?
  @usableFromInline var assigned = false
  @usableFromInline var disposed = false

  /// Creates an empty container.
  @inlinable
  public init() {}

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { lock.withLock { disposed } }

  /// Assigns the disposable. Assigning twice is a programming error.
  ///
  /// If the container was already disposed, `disposable` is disposed at once.
  @inlinable
  public func setDisposable(_ disposable: Disposable) {
    lock.lock()
    precondition(!assigned, "SingleAssignmentDisposable: a disposable was already assigned.")
    assigned = true
    if disposed {
      lock.unlock()
      disposable.dispose()
      return
    }
    current = disposable
    lock.unlock()
  }

  /// Disposes the assigned disposable (now or when it is assigned).
  @inlinable
  public func dispose() {
    lock.lock()
    if disposed {
      lock.unlock()
      return
    }
    disposed = true
    let toDispose = current
    current = nil
    lock.unlock()
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
    lock.lock()
    if disposed {
      lock.unlock()
      return
    }
    disposed = true
    let old = current
    current = nil
    lock.unlock()
    old?.dispose()
  }
}
