/// A stand-in for a reactor in view tests.
///
/// With ``Reactor/isStubEnabled`` set, the reactor's ``Reactor/action`` is ``action`` and its
/// ``Reactor/state`` is ``state``: actions the view sends are recorded in ``actions`` instead
/// of running `mutate`/`reduce`, and assigning ``StateRelay/value`` on ``state`` pushes a
/// state to the view (and becomes ``Reactor/currentState``).
///
/// ```swift
/// reactor.isStubEnabled = true
/// view.reactor = reactor
/// reactor.stub.state.value = State(isLoading: true)
/// XCTAssertEqual(reactor.stub.actions.last, .refresh)
/// ```
public final class Stub<Reactor: ReactorKit.Reactor>: @unchecked Sendable {
  // Safety: `recorder` synchronises itself; `reactor` is only read.
  private weak var reactor: Reactor?
  private let recorder: StubRecorder<Reactor.Action, Reactor.State>

  @usableFromInline
  init(reactor: Reactor, recorder: StubRecorder<Reactor.Action, Reactor.State>) {
    self.reactor = reactor
    self.recorder = recorder
  }

  /// The state the view sees while the stub is enabled; starts with the reactor's
  /// ``Reactor/initialState``.
  public var state: StateRelay<Reactor.State> { recorder.state }

  /// The action subject the view sends to while the stub is enabled.
  public var action: ActionSubject<Reactor.Action> { recorder.action }

  /// Every action sent to ``action``, oldest first.
  public var actions: [Reactor.Action] { recorder.actions }

  /// Whether the stub is enabled; use ``Reactor/isStubEnabled`` instead.
  @available(*, deprecated, message: "Use 'Reactor.isStubEnabled' instead.")
  public var isEnabled: Bool {
    get { reactor?.isStubEnabled ?? false }
    set { reactor?.isStubEnabled = newValue }
  }
}

/// The parts of a stub shared by every ``Stub`` object of one reactor.
@usableFromInline
final class StubRecorder<Action, State>: @unchecked Sendable {
  // Safety: the relay, the subject and the locked log are thread-safe.
  @usableFromInline let state: StateRelay<State>
  @usableFromInline let action: ActionSubject<Action>
  private let log: LockedBox<[Action]>

  @usableFromInline
  init(initialState: State) {
    let log = LockedBox<[Action]>([])
    self.log = log
    state = StateRelay(value: initialState)
    action = ActionSubject { action in
      log.withLock { $0.append(action) }
    }
  }

  /// The recorded actions, oldest first.
  var actions: [Action] { log.withLock { $0 } }
}
