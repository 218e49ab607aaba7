import ReactorKitStreams
import Synchronization

/// The tables that keep per-object storage for reactors and reactor views.
@usableFromInline
enum StorageTables {
  /// Storage of every reactor that has been touched, keyed by the reactor.
  @usableFromInline static let reactors = WeakObjectTable()
}

/// Everything ReactorKit keeps for one reactor: the engine, the action subject, the state
/// stream, the stub and the stub flag.
///
/// The reactor's stored properties are its own; this storage is what the `Reactor` protocol
/// extension adds without them. It lives in ``StorageTables/reactors`` until the reactor is
/// gone, and with it the objects handed out as ``Reactor/action`` and ``Reactor/state``, which
/// are therefore the same objects for the reactor's whole life.
@usableFromInline
final class ReactorStorage<Action, Mutation, State>: OwnedStorage, @unchecked Sendable {
  // Safety: `isWiring`, `stubRecorder` and `stubObject` are guarded by `lock`, the core's
  // lock (behind `guarded`); `isWired` and `stubFlag` are atomic; `core` synchronises itself; `action` and
  // `state` are immutable.
  @usableFromInline
  struct Guarded {
    @usableFromInline var isWiring = false
    @usableFromInline var stubRecorder: StubRecorder<Action, State>?
    @usableFromInline var stubObject: AnyObject?

    @inlinable init() {}
  }

  @usableFromInline let core: ReactorCore<Action, Mutation, State>
  /// The reactor's action subject. It holds the engine, which never holds it back.
  @usableFromInline let action: ActionSubject<Action>
  /// The reactor's state stream: the engine's output, behind an observable that cannot be
  /// cast back to a subject.
  @usableFromInline let state: Observable<State>
  /// The core's lock, shared so that a reactor carries one mutex fewer. Never held while
  /// calling into the core.
  @inlinable var lock: Lock { core.lock }
  @usableFromInline let guarded: UnsafeMutablePointer<Guarded>
  @usableFromInline let isWired = Atomic<Bool>(false)
  @usableFromInline let stubFlag = Atomic<Bool>(false)

  @inlinable
  override init() {
    let core = ReactorCore<Action, Mutation, State>(onReactorGone: {
      StorageTables.reactors.purge()
    })
    self.core = core
    action = ActionSubject(channel: ActionChannel()) { core.receive($0) }
    state = Observable { observer in core.subscribeOutput(observer) }
    guarded = .allocate(capacity: 1)
    guarded.initialize(to: Guarded())
    super.init()
  }

  deinit {
    guarded.deinitialize(count: 1)
    guarded.deallocate()
  }

  /// The storage of `reactor`, created on first use.
  @inlinable
  static func of<R: Reactor>(_ reactor: R) -> ReactorStorage
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let storage = StorageTables.reactors.value(for: reactor) { ReactorStorage() }
    // A reactor's associated types never change, so its storage always has this type.
    return unsafeDowncast(storage, to: ReactorStorage.self)
  }

  @usableFromInline
  override func ownerDidDeinitialize() {
    core.dispose()
  }

  // MARK: - Streams

  /// Builds the pipeline with `wire` unless it is built or being built.
  ///
  /// The first caller wires, outside any lock (`wire` runs the reactor's transforms). Callers
  /// on other threads, and reentrant calls from the transforms, return at once: ``action`` and
  /// ``state`` work before wiring is done, and actions sent meanwhile are queued until it is.
  @inlinable
  func ensureWired(_ wire: (ReactorCore<Action, Mutation, State>) -> Void) {
    if isWired.load(ordering: .acquiring) { return }
    lock.lock()
    if guarded.pointee.isWiring {
      lock.unlock()
      return
    }
    guarded.pointee.isWiring = true
    lock.unlock()
    wire(core)
    isWired.store(true, ordering: .releasing)
  }

  // MARK: - Stub

  /// Whether the stub replaces the real action and state streams.
  @inlinable
  var isStubEnabled: Bool {
    get { stubFlag.load(ordering: .acquiring) }
    set { stubFlag.store(newValue, ordering: .releasing) }
  }

  /// The stub's shared parts, created on first use with `initialState`.
  @usableFromInline
  func stubRecorder(initialState: () -> State) -> StubRecorder<Action, State> {
    lock.lock()
    if let recorder = guarded.pointee.stubRecorder {
      lock.unlock()
      return recorder
    }
    lock.unlock()
    let created = StubRecorder<Action, State>(initialState: initialState())
    lock.lock()
    defer { lock.unlock() }
    if let recorder = guarded.pointee.stubRecorder { return recorder }
    guarded.pointee.stubRecorder = created
    return created
  }

  /// The `Stub` object for `reactor`; the same instance on every access through the same
  /// static type.
  @usableFromInline
  func stub<R: Reactor>(for reactor: R) -> Stub<R>
  where R.Action == Action, R.State == State {
    let recorder = stubRecorder(initialState: { reactor.initialState })
    lock.lock()
    defer { lock.unlock() }
    if let stub = guarded.pointee.stubObject as? Stub<R> { return stub }
    let stub = Stub(reactor: reactor, recorder: recorder)
    if guarded.pointee.stubObject == nil { guarded.pointee.stubObject = stub }
    return stub
  }
}
