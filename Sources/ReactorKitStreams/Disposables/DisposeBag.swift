/// Collects disposables and disposes them all when the bag is deinitialised.
///
/// Give an owner (a view, a reactor) a bag and add its subscriptions with
/// ``Disposable/disposed(by:)``; replacing the bag (`disposeBag = DisposeBag()`) ends them.
public final class DisposeBag: @unchecked Sendable {
  // Safety: all state is guarded by `lock`.
  private let lock = Lock()
  private var disposables: [Disposable] = []
  private var isDisposed = false

  /// Creates an empty bag.
  public init() {}

  /// Adds `disposable`; if the bag is already being deinitialised it is disposed at once.
  public func insert(_ disposable: Disposable) {
    lock.lock()
    if isDisposed {
      lock.unlock()
      disposable.dispose()
      return
    }
    disposables.append(disposable)
    lock.unlock()
  }

  /// Adds several disposables.
  public func insert(_ disposables: Disposable...) {
    for disposable in disposables { insert(disposable) }
  }

  private func disposeAll() {
    let all = lock.withLock {
      isDisposed = true
      let all = disposables
      disposables = []
      return all
    }
    for disposable in all { disposable.dispose() }
  }

  deinit {
    disposeAll()
  }
}

extension Disposable {
  /// Adds the disposable to `bag`, which disposes it when the bag goes away.
  @inlinable
  public func disposed(by bag: DisposeBag) {
    bag.insert(self)
  }
}
