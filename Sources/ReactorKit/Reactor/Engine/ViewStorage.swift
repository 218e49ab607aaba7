import ReactorKitStreams

extension StorageTables {
  /// The reactor of every reactor view, keyed by the view.
  static let views = WeakObjectTable()
}

/// What ReactorKit keeps for one ``ReactorView``: its reactor and whether it is bound.
final class ViewStorage: OwnedStorage, @unchecked Sendable {
  // Safety: all state is guarded by `lock`.
  private let lock = Lock()
  private var reactor: AnyObject?
  private var isBound = false

  /// The storage of `view`, created on first use.
  static func of(_ view: AnyObject) -> ViewStorage {
    let storage = StorageTables.views.value(for: view) { ViewStorage() }
    return unsafe unsafeDowncast(storage, to: ViewStorage.self)
  }

  /// The storage of `view`, or `nil` if it never had a reactor.
  static func existing(for view: AnyObject) -> ViewStorage? {
    StorageTables.views.value(for: view).map { unsafe unsafeDowncast($0, to: ViewStorage.self) }
  }

  /// The view's reactor.
  var currentReactor: AnyObject? { lock.withLock { reactor } }

  /// What assigning `view.reactor` does before binding, for every kind of reactor view:
  /// stores `newReactor` as not yet bound and gives the view a fresh dispose bag, whose end
  /// also releases this storage. Returns the storage and the previous reactor, which the
  /// caller keeps until it has bound the new one.
  static func assign<View: ReactorView>(_ newReactor: View.Reactor?, to view: View) -> (
    storage: ViewStorage, previous: AnyObject?
  ) {
    let storage = ViewStorage.of(view)
    let previous = storage.replaceReactor(with: newReactor)
    view.disposeBag = DisposeBag()
    storage.releaseWhenDeinitialized(view, with: view.disposeBag)
    return (storage, previous)
  }

  /// Stores `newReactor` as not yet bound and returns the previous reactor, which the caller
  /// releases once it no longer holds any lock.
  func replaceReactor(with newReactor: AnyObject?) -> AnyObject? {
    lock.withLock {
      let previous = reactor
      reactor = newReactor
      isBound = false
      return previous
    }
  }

  /// Marks the current reactor as bound and returns it, or returns `nil` when there is none or
  /// it is already bound.
  func reactorToBind() -> AnyObject? {
    lock.withLock {
      guard let reactor, !isBound else { return nil }
      isBound = true
      return reactor
    }
  }

  /// Releases the storage when `view` goes away with `disposeBag`: a sentinel in the bag
  /// reports the view's end at once instead of waiting for the table's sweep.
  func releaseWhenDeinitialized(_ view: AnyObject, with disposeBag: DisposeBag) {
    let key = ObjectIdentifier(view)
    disposeBag.insert(
      DeinitSentinel { [weak view, weak self] in
        guard view == nil, let self else { return }
        StorageTables.views.remove(self, forKey: key)
      })
  }

  override func ownerDidDeinitialize() {
    let released = replaceReactor(with: nil)
    guard released != nil else { return }
    // The view may have held the last reference to its reactor: release it now and let the
    // reactor table drop the reactor's streams with it.
    withExtendedLifetime(released) {}
    StorageTables.reactors.purge()
  }
}
