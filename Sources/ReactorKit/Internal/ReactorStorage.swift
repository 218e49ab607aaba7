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

/// Everything ReactorKit keeps for one reactor: the engine, the action channel, the stub and
/// the stub flag.
///
/// The reactor's stored properties are its own; this storage is what the `Reactor` protocol
/// extension adds without them. It lives in ``StorageTables/reactors`` until the reactor is
/// gone, and with it the objects handed out as ``Reactor/action`` and ``Reactor/state``, which
/// are therefore the same objects for the reactor's whole life.
final class ReactorStorage<Action, Mutation, State>: ReactorStorageBase, @unchecked Sendable {
  // Safety: `isWiring`, `stubRecorder` and `stubObject` are guarded by `lock`; `isWired` and
  // `stubFlag` are atomic; `core` synchronises itself; `action` and `state` are immutable.
  let core = ReactorCore<Action, Mutation, State>()
  /// The reactor's action subject. It holds the engine, which never holds it back.
  let action: ActionSubject<Action>
  /// The reactor's state stream: the engine's output, behind an observable that cannot be
  /// cast back to a subject.
  let state: Observable<State>
  private let lock = Lock()
  private let isWired = Atomic<Bool>(false)
  private var isWiring = false
  private var stubRecorder: StubRecorder<Action, State>?
  private var stubObject: AnyObject?
  private let stubFlag = Atomic<Bool>(false)

  override init() {
    let core = self.core
    action = ActionSubject(channel: ActionChannel()) { core.receive($0) }
    let output = core.output
    state = .deferred { output }
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

  /// Builds the pipeline with `wire` unless it is built or being built.
  ///
  /// The first caller wires, outside any lock (`wire` runs the reactor's transforms). Callers
  /// on other threads, and reentrant calls from the transforms, return at once: ``action`` and
  /// ``state`` work before wiring is done, and actions sent meanwhile are queued until it is.
  func ensureWired(_ wire: (ReactorCore<Action, Mutation, State>) -> Void) {
    if isWired.load(ordering: .acquiring) { return }
    lock.lock()
    if isWiring {
      lock.unlock()
      return
    }
    isWiring = true
    lock.unlock()
    wire(core)
    isWired.store(true, ordering: .releasing)
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
