/// Disposes its underlying disposable once it was disposed itself and every disposable
/// handed out by ``retain()`` was disposed too.
///
/// Use it to share one resource among several users that each release it when done.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
  // Safety: all state is guarded by `lock`.
  private let lock = Lock()
  private var disposable: Disposable?
  private var isPrimaryDisposed = false
  private var count = 0

  /// Creates a reference counter for `disposable`.
  public init(disposable: Disposable) {
    self.disposable = disposable
  }

  /// Whether the underlying disposable was disposed.
  public var isDisposed: Bool { lock.withLock { disposable == nil } }

  /// Returns a dependent disposable that keeps the underlying one alive until it is
  /// disposed. After the underlying disposable was disposed, returns a disposable that does
  /// nothing.
  public func retain() -> Disposable {
    let retained = lock.withLock { () -> Bool in
      guard disposable != nil else { return false }
      count += 1
      return true
    }
    guard retained else { return Disposables.create() }
    return Disposables.create { [self] in release() }
  }

  /// Disposes the underlying disposable now if no dependent is left, otherwise when the
  /// last dependent is disposed.
  public func dispose() {
    let toDispose = lock.withLock { () -> Disposable? in
      guard let disposable, !isPrimaryDisposed else { return nil }
      isPrimaryDisposed = true
      guard count == 0 else { return nil }
      self.disposable = nil
      return disposable
    }
    toDispose?.dispose()
  }

  private func release() {
    let toDispose = lock.withLock { () -> Disposable? in
      guard let disposable else { return nil }
      count -= 1
      guard isPrimaryDisposed, count == 0 else { return nil }
      self.disposable = nil
      return disposable
    }
    toDispose?.dispose()
  }
}
