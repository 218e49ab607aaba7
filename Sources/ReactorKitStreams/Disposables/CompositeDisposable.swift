/// A group of disposables disposed together.
///
/// Adding to a disposed group disposes the new member at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
  // Safety: all state is guarded by `lock`.

  /// Identifies a member so it can be removed.
  public struct DisposeKey: Hashable, Sendable {
    fileprivate let id: UInt64
  }

  private let lock = Lock()
  private var members: [UInt64: Disposable] = [:]
  private var nextID: UInt64 = 0
  private var disposed = false

  /// Creates an empty group.
  public init() {}

  /// Creates a group holding the arguments.
  public init(_ disposable1: Disposable, _ disposable2: Disposable) {
    members = [0: disposable1, 1: disposable2]
    nextID = 2
  }

  /// Creates a group holding the arguments.
  public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
    members = [0: disposable1, 1: disposable2, 2: disposable3]
    nextID = 3
  }

  /// Creates a group holding the arguments, any number from four on.
  public init(
    _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
    _ disposable4: Disposable, _ disposables: Disposable...
  ) {
    for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables {
      members[nextID] = disposable
      nextID += 1
    }
  }

  /// Creates a group holding `disposables`.
  public init(disposables: [Disposable]) {
    for disposable in disposables {
      members[nextID] = disposable
      nextID += 1
    }
  }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { lock.withLock { disposed } }

  /// The number of members not yet removed.
  public var count: Int { lock.withLock { members.count } }

  /// Adds `disposable`.
  ///
  /// - Returns: A key for ``remove(for:)``, or `nil` when the group was already disposed (and
  ///   `disposable` has been disposed).
  @discardableResult
  public func insert(_ disposable: Disposable) -> DisposeKey? {
    lock.lock()
    if disposed {
      lock.unlock()
      disposable.dispose()
      return nil
    }
    let id = nextID
    nextID += 1
    members[id] = disposable
    lock.unlock()
    return DisposeKey(id: id)
  }

  /// Removes the member for `key` and disposes it.
  public func remove(for key: DisposeKey) {
    let removed = lock.withLock { members.removeValue(forKey: key.id) }
    removed?.dispose()
  }

  /// Disposes every member, now and later.
  public func dispose() {
    // The flag is read and set inside the closure, under the lock (see SerialDisposable).
    let all = lock.withLock { () -> [Disposable] in
      if disposed { return [] }
      disposed = true
      let all = members.sorted { $0.key < $1.key }.map(\.value)
      members = [:]
      return all
    }
    for disposable in all { disposable.dispose() }
  }
}
