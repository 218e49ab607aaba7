import ReactorKitStreams
import Synchronization

/// The tables that keep per-object storage for reactors and reactor views.
enum StorageTables {
  /// Storage of every reactor that has been touched, keyed by the reactor.
  static let reactors = WeakObjectTable<ReactorStorageBase>()
}

/// The non-generic face of ``ReactorStorage``, so one table can hold every reactor's storage.
class ReactorStorageBase: OwnerBoundStorage, @unchecked Sendable {
  // Safety: no stored state.
  func ownerDidDeinitialize() {}
}

/// Everything ReactorKit keeps for one reactor: the engine, the action subject, the stub and
/// the stub flag.
///
/// The reactor's stored properties are its own; this storage is what the `Reactor` protocol
/// extension adds without them. It lives in ``StorageTables/reactors`` until the reactor is
/// gone.
final class ReactorStorage<Action, Mutation, State>: ReactorStorageBase, @unchecked Sendable {
  // Safety: `actionSubject`, `stubRecorder` and `stubObject` are written under `lock`;
  // `actionSubject` is written once, and `isWired` (release/acquire) publishes it to readers
  // that skip the lock. `isStubEnabled` is atomic. `core` synchronises itself.
  let core = ReactorCore<Action, Mutation, State>()
  private let lock = Lock()
  private let isWired = Atomic<Bool>(false)
  private var actionSubject: ActionSubject<Action>?
  private var stubRecorder: StubRecorder<Action, State>?
  private var stubObject: AnyObject?
  private let stubFlag = Atomic<Bool>(false)

  override init() {
    super.init()
    core.onReactorGone = { StorageTables.reactors.purge() }
  }

  /// The storage of `reactor`, created on first use.
  static func of<R: Reactor>(_ reactor: R) -> ReactorStorage
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let storage = StorageTables.reactors.value(for: reactor) { ReactorStorage() }
    // A reactor's associated types never change, so its storage always has this type.
    return unsafeDowncast(storage, to: ReactorStorage.self)
  }

  override func ownerDidDeinitialize() {
    core.dispose()
  }

  // MARK: - Streams

  /// The action subject, creating the state stream first if needed.
  ///
  /// The first caller creates the objects under the lock (no user code runs there), then
  /// wires the pipeline with `wire` outside it. Callers on other threads, or reentrant calls
  /// from the reactor's transforms, get the same objects at once; actions they send are
  /// queued until wiring is done.
  func actionSubject(wire: (ReactorCore<Action, Mutation, State>) -> Void) -> ActionSubject<
    Action
  > {
    if isWired.load(ordering: .acquiring) { return actionSubject.unsafelyUnwrapped }
    lock.lock()
    if let subject = actionSubject {
      lock.unlock()
      return subject
    }
    let core = self.core
    let subject = ActionSubject<Action> { core.receive($0) }
    actionSubject = subject
    lock.unlock()
    wire(core)
    isWired.store(true, ordering: .releasing)
    return subject
  }

  // MARK: - Stub

  /// Whether the stub replaces the real action and state streams.
  var isStubEnabled: Bool {
    get { stubFlag.load(ordering: .acquiring) }
    set { stubFlag.store(newValue, ordering: .releasing) }
  }

  /// The stub's shared parts, created on first use with `initialState`.
  func stubRecorder(initialState: @autoclosure () -> State) -> StubRecorder<Action, State> {
    lock.lock()
    if let stubRecorder {
      lock.unlock()
      return stubRecorder
    }
    lock.unlock()
    let created = StubRecorder<Action, State>(initialState: initialState())
    lock.lock()
    defer { lock.unlock() }
    if let stubRecorder { return stubRecorder }
    stubRecorder = created
    return created
  }

  /// The `Stub` object for `reactor`; the same instance on every access through the same
  /// static type.
  func stub<R: Reactor>(for reactor: R) -> Stub<R>
  where R.Action == Action, R.State == State {
    let recorder = stubRecorder(initialState: reactor.initialState)
    lock.lock()
    defer { lock.unlock() }
    if let stub = stubObject as? Stub<R> { return stub }
    let stub = Stub(reactor: reactor, recorder: recorder)
    if stubObject == nil { stubObject = stub }
    return stub
  }
}
