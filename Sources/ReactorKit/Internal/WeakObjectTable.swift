import Dispatch
import ReactorKitStreams

#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// Storage that a ``WeakObjectTable`` keeps for an owner object and releases after the owner
/// has been deinitialised. Subclasses hold the actual state.
@usableFromInline
class OwnedStorage: @unchecked Sendable {
  // Safety: no stored state; subclasses synchronise their own.
  @inlinable init() {}

  /// Called once, on an arbitrary thread and without any table lock held, after the owner is
  /// gone. Stops everything the storage runs and releases what it holds.
  @usableFromInline
  func ownerDidDeinitialize() {}
}

/// A map from objects to storage that does not retain the objects: the library's replacement
/// for associated objects.
///
/// Entries are keyed by `ObjectIdentifier` and remember their owner weakly, so an entry whose
/// owner has died is recognised even if a new object later reuses the address. Dead entries
/// are released
/// - at once on Apple platforms, where a sentinel associated with the owner reports its
///   deinitialisation;
/// - when an object that owns a sentinel the table handed out (``DeinitSentinel``) goes away;
/// - when an insertion reuses the key of a dead owner, and by a scan for dead owners that
///   insertions run after the table has grown by half since the last scan (amortised O(1));
/// - on Linux, by a background sweep that runs every ``sweepInterval`` while the table is
///   not empty (Swift offers no deinitialisation hook for arbitrary classes there).
///
/// All methods are thread-safe. The table never calls back into owners, and it releases
/// storage (``OwnedStorage/ownerDidDeinitialize()``) outside its lock.
@usableFromInline
final class WeakObjectTable: @unchecked Sendable {
  // Safety: `entries`, `sweeper` and `insertionsSinceScan` are guarded by `lock`.
  private struct Entry {
    weak var owner: AnyObject?
    let value: OwnedStorage
  }

  /// How often the Linux sweep looks for dead owners.
  static var sweepInterval: DispatchTimeInterval { .milliseconds(50) }

  private let lock = Lock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  private var sweeper: DispatchSourceTimer?
  private var insertionsSinceScan = 0

  init() {}

  /// The number of entries, dead or alive (for tests).
  var count: Int { lock.withLock { entries.count } }

  /// The storage of `owner`, or `nil` when none was created.
  @usableFromInline
  func value(for owner: AnyObject) -> OwnedStorage? {
    let key = ObjectIdentifier(owner)
    lock.lock()
    let entry = entries[key]
    lock.unlock()
    guard let entry, entry.owner === owner else { return nil }
    return entry.value
  }

  /// The storage of `owner`, created with `make` if it has none.
  ///
  /// - Parameter make: Builds the storage. Runs with the table locked, so it must not call
  ///   user code or touch the table.
  @usableFromInline
  func value(for owner: AnyObject, orInsert make: () -> OwnedStorage) -> OwnedStorage {
    let key = ObjectIdentifier(owner)
    lock.lock()
    if let entry = entries[key], entry.owner === owner {
      lock.unlock()
      return entry.value
    }
    var dead: [OwnedStorage] = []
    if let stale = entries[key] {
      // It belonged to a dead object at the same address.
      dead.append(stale.value)
    }
    let value = make()
    entries[key] = Entry(owner: owner, value: value)
    insertionsSinceScan += 1
    if insertionsSinceScan * 2 >= entries.count {
      dead += removeDeadLocked()
    }
    startSweeperIfNeededLocked()
    lock.unlock()
    attachSentinel(to: owner, value: value)
    for storage in dead { storage.ownerDidDeinitialize() }
    return value
  }

  /// Stores `value` for `owner`, replacing (and returning) the previous storage, or removes
  /// the entry when `value` is `nil`. The replaced storage is not released.
  @discardableResult
  func setValue(_ value: OwnedStorage?, for owner: AnyObject) -> OwnedStorage? {
    let key = ObjectIdentifier(owner)
    lock.lock()
    let previous = entries[key]
    if let value {
      entries[key] = Entry(owner: owner, value: value)
      startSweeperIfNeededLocked()
    } else {
      entries[key] = nil
    }
    lock.unlock()
    if let value { attachSentinel(to: owner, value: value) }
    guard let previous else { return nil }
    guard previous.owner === owner else {
      // It belonged to a dead object at the same address.
      previous.value.ownerDidDeinitialize()
      return nil
    }
    return previous.value
  }

  /// Removes the entry for `key` if it still holds `value`, and releases `value`.
  ///
  /// Used when the owner of `value` is known to be gone.
  func remove(_ value: OwnedStorage, forKey key: ObjectIdentifier) {
    lock.lock()
    let matches = entries[key]?.value === value
    if matches { entries[key] = nil }
    lock.unlock()
    if matches { value.ownerDidDeinitialize() }
  }

  /// Releases the storage of every owner that has been deinitialised.
  @usableFromInline
  func purge() {
    lock.lock()
    let dead = removeDeadLocked()
    lock.unlock()
    for storage in dead { storage.ownerDidDeinitialize() }
  }

  private func removeDeadLocked() -> [OwnedStorage] {
    insertionsSinceScan = 0
    var dead: [OwnedStorage] = []
    for (key, entry) in entries where entry.owner == nil {
      entries[key] = nil
      dead.append(entry.value)
    }
    if entries.isEmpty, let sweeper {
      sweeper.cancel()
      self.sweeper = nil
    }
    return dead
  }

  private func startSweeperIfNeededLocked() {
    #if !canImport(ObjectiveC)
      guard sweeper == nil else { return }
      let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
      let interval = Self.sweepInterval
      timer.schedule(deadline: .now() + interval, repeating: interval, leeway: interval)
      timer.setEventHandler { [weak self] in self?.purge() }
      timer.resume()
      sweeper = timer
    #endif
  }

  private func attachSentinel(to owner: AnyObject, value: OwnedStorage) {
    #if canImport(ObjectiveC)
      let key = ObjectIdentifier(owner)
      let sentinel = DeinitSentinel { [weak self, weak value] in
        guard let self, let value else { return }
        self.remove(value, forKey: key)
      }
      objc_setAssociatedObject(
        owner, Unmanaged.passUnretained(self).toOpaque(), sentinel, .OBJC_ASSOCIATION_RETAIN)
    #endif
  }
}

/// Runs a closure when it is disposed or deinitialised, whichever comes first.
///
/// Placed where an owner keeps it (an associated object, a dispose bag the owner holds), it
/// reports the owner's end.
final class DeinitSentinel: Disposable, @unchecked Sendable {
  // Safety: `action` is taken under `lock` by exactly one caller.
  private let lock = Lock()
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) {
    self.action = action
  }

  func dispose() {
    lock.lock()
    let action = self.action
    self.action = nil
    lock.unlock()
    action?()
  }

  deinit {
    action?()
  }
}
