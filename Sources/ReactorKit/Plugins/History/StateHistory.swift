/// A bounded history of a state, for time travel and undo/redo: it records the state after
/// each action and can step back, step forward and jump to any recorded state.
///
/// Install it in the store whose state it records: for the whole state, `plugins: [history]`;
/// for one feature's state, scoped to it:
///
/// ```swift
/// let history = StateHistory<TodosState>(capacity: 100)
/// let store = Store(
///   reducer: AppState.reducer, state: AppState(),
///   plugins: [history.scoped(to: \.todos)])   // undo covers the todos only
///
/// history.stepBack()      // undo: the store publishes the previous todos
/// history.stepForward()   // redo
/// history.jump(to: 0)     // the oldest recorded state
/// ```
///
/// Installing does both things a history needs: it wraps the store's reducer (to record states
/// and restore them) and connects the history to the store (so that navigation can dispatch).
/// Navigating a history that is not installed in a store stops the program with a message
/// that says so, instead of doing nothing.
///
/// ## Recording
///
/// Entry 0 is the state before the first action the history saw; each action that changes the
/// state (by `isDuplicate`) appends the new state, and actions that don't change it (such as
/// other features' actions reaching a lifted reducer) record nothing. After stepping back, a
/// new change discards the entries ahead (as undo/redo does).
///
/// ## Bounds
///
/// At most `capacity` entries are kept; when a new entry would exceed it, the oldest is
/// dropped and every index shifts down by one, so ``jump(to:)`` indexes always count from
/// the oldest entry kept.
///
/// ## Navigation
///
/// ``stepBack(_:)``, ``stepForward(_:)`` and ``jump(to:)`` dispatch a ``HistoryAction`` to the
/// connected store; its reducer (this history's `reducer`) replaces the state with the
/// recorded one, so subscribers of the store's `state` receive the restored state, middleware
/// and loggers see the navigation as an action, and recordings can replay it.
///
/// ## Threading
///
/// The history is updated only by its reducer, on the store's processing thread. Its
/// properties can be read from any thread; read them after the store published a state to
/// see the history as of that state (for example to enable an Undo button).
public final class StateHistory<State>: @unchecked Sendable {
  // Safety: `entries`, `index` and `dispatch` are guarded by `lock`; the reducer, the only
  // writer of `entries` and `index`, runs serially on the store's processing thread. The
  // other properties are immutable.
  /// The history's name, which ``HistoryAction``s address; unique per store.
  public let name: String
  /// The most entries kept.
  public let capacity: Int
  private let isDuplicate: (State, State) -> Bool
  private let lock = Lock()
  /// The entries, each in a box of its own: a large state stored inline is read straight into
  /// its box, never onto the dispatching thread's stack (issue 29, item 5).
  private var entries: [HeapState<State>] = []
  private var index = 0
  private var dispatch: ((any Action) -> Void)?
  /// How many reducers ``reducer(_:)`` wrapped (the deprecated two-step wiring).
  private var wrappedReducers = 0

  /// Creates a history.
  ///
  /// - Parameters:
  ///   - name: The name its ``HistoryAction``s carry; `"history"` by default. Give each
  ///     history of one store its own name.
  ///   - capacity: The most entries kept, at least 1 (see the type's discussion).
  ///   - isDuplicate: Whether an action left the state unchanged, so no entry is recorded.
  public init(
    name: String = "history", capacity: Int = 100,
    isDuplicate: @escaping (State, State) -> Bool
  ) {
    self.name = name
    self.capacity = max(1, capacity)
    self.isDuplicate = isDuplicate
  }

  // MARK: - Wiring

  /// `base`, recording the state after each action, and handling this history's
  /// ``HistoryAction``s by restoring a recorded state (without calling `base`).
  @available(
    *, deprecated,
    message:
      "Install the history, which wraps the reducer and connects the history in one step: 'Store(reducer:state:plugins: [history])', or 'history.scoped(to: \\.part)' for a part of the state."
  )
  public func reducer(_ base: Reducer<State>) -> Reducer<State> {
    lock.withLock { wrappedReducers += 1 }
    return recording(base)
  }

  /// `base`, recording the state after each action, and handling this history's
  /// ``HistoryAction``s by restoring a recorded state (without calling `base`).
  private func recording(_ base: Reducer<State>) -> Reducer<State> {
    Reducer { [self] state, action in
      // No local of type `State` here: this closure runs unspecialised, where the optimizer
      // hoists every generic stack slot to the entry, so one local would cost a slot of the
      // state's size on every path (a 256 KiB state: 256 KiB of stack per dispatch).
      if HistoryAction.isHistoryAction(action), let navigation = action as? HistoryAction {
        if navigation.history == name {
          restore(navigation.command, into: &state)
          return
        }
      }
      if MemoryLayout<State>.size > StoreCore<State>.largeStateSize {
        reduceLarge(base, &state, action)
      } else {
        reduceSmall(base, &state, action)
      }
    }
  }

  /// A middleware that connects the history to its store, so that the navigation methods can
  /// dispatch to it. It lets every action through.
  ///
  /// - Precondition: A reducer was wrapped with ``reducer(_:)`` before the store is created;
  ///   otherwise nothing would record or restore states.
  @available(
    *, deprecated,
    message:
      "Install the history, which wraps the reducer and connects the history in one step: 'Store(reducer:state:plugins: [history])', or 'history.scoped(to: \\.part)' for a part of the state."
  )
  public func middleware<Root>() -> Middleware<Root> {
    .redux { [self] _, dispatch in
      let hasReducer = lock.withLock {
        self.dispatch = dispatch
        return wrappedReducers > 0
      }
      precondition(
        hasReducer,
        "StateHistory \"\(name)\": its middleware is in a store whose reducer it doesn't wrap, "
          + "so it would record nothing. Install the history instead of adding its middleware: "
          + "'Store(reducer:state:plugins: [history])' (or 'history.scoped(to: \\.part)').")
      return { next in next }
    }
  }

  // MARK: - Navigation

  /// Dispatches a step back by `steps` entries (undo), stopping at the oldest entry kept; a
  /// count of 0 or less does not move.
  ///
  /// - Precondition: The history is installed in a store (see the type's discussion).
  public func stepBack(_ steps: Int = 1) {
    send(.stepBack(steps))
  }

  /// Dispatches a step forward by `steps` entries (redo), stopping at the newest entry; a
  /// count of 0 or less does not move.
  public func stepForward(_ steps: Int = 1) {
    send(.stepForward(steps))
  }

  /// Dispatches a jump to the entry at `index` (0 is the oldest entry kept).
  public func jump(to index: Int) {
    send(.jump(to: index))
  }

  /// The action that performs `command` on this history, to dispatch yourself (for example
  /// from a reactor with `dispatchEffect`).
  public func action(_ command: HistoryAction.Command) -> HistoryAction {
    HistoryAction(history: name, command: command)
  }

  private func send(_ command: HistoryAction.Command) {
    guard let dispatch = lock.withLock({ self.dispatch }) else {
      preconditionFailure(
        "StateHistory \"\(name)\": \(command) on a history that is not installed in a store, "
          + "which would do nothing. Install it: 'Store(reducer:state:plugins: [history])' "
          + "(or 'history.scoped(to: \\.part)' for a part of the state).")
    }
    dispatch(action(command))
  }

  // MARK: - Reading

  /// The number of entries kept.
  public var count: Int { lock.withLock { entries.count } }

  /// The index of the entry the state is at; 0 when nothing is recorded yet.
  public var currentIndex: Int { lock.withLock { index } }

  /// Whether there is an entry before the current one (undo is possible).
  public var canStepBack: Bool { lock.withLock { index > 0 } }

  /// Whether there is an entry after the current one (redo is possible).
  public var canStepForward: Bool { lock.withLock { index + 1 < entries.count } }

  /// The recorded states, oldest first.
  public var states: [State] { lock.withLock { entries.map(\.value) } }

  // MARK: - Recording

  /// Applies `command`; returns the state to restore, or `nil` for no move.
  private func move(_ command: HistoryAction.Command) -> HeapState<State>? {
    lock.withLock {
      guard !entries.isEmpty else { return nil }
      let target: Int
      switch command {
      // Counts are clamped before any arithmetic: any Int (from code or a recording file)
      // stops at the ends, and a count of 0 or less does not move.
      case .stepBack(let steps): target = index - min(max(0, steps), index)
      case .stepForward(let steps):
        target = index + min(max(0, steps), entries.count - 1 - index)
      case .jump(let position):
        guard entries.indices.contains(position) else { return nil }
        target = position
      }
      index = target
      return entries[target]
    }
  }

  /// Reduces a state larger than the engine's inline limit, copying the states before and
  /// after straight into boxes: this code runs unspecialised (through the plugin protocol),
  /// where each local or temporary state would be a stack allocation of the state's size.
  @inline(never)
  private func reduceLarge(_ base: Reducer<State>, _ state: inout State, _ action: any Action) {
    let before = HeapState(copying: state)
    base.reduce(&state, action)
    record(before: before, after: HeapState(copying: state))
  }

  /// Reduces a small state, keeping the state before on the stack.
  @inline(never)
  private func reduceSmall(_ base: Reducer<State>, _ state: inout State, _ action: any Action) {
    let before = state
    base.reduce(&state, action)
    record(before: before, after: state)
  }

  /// Applies a navigation `command` to `state`.
  @inline(never)
  private func restore(_ command: HistoryAction.Command, into state: inout State) {
    if let restored = move(command) { state = restored.value }
  }

  private func record(before: State, after: State) {
    if isDuplicate(before, after) {
      recordUnchanged(HeapState(copying: after))
    } else {
      append(before: HeapState(copying: before), after: HeapState(copying: after))
    }
  }

  /// Records a change read into boxes (a large state, or a part of one).
  private func record(before: HeapState<State>, after: HeapState<State>) {
    if isDuplicate(before.value, after.value) {
      recordUnchanged(after)
    } else {
      append(before: before, after: after)
    }
  }

  /// An action left the state as it was: only the very first one records it.
  private func recordUnchanged(_ state: @autoclosure () -> HeapState<State>) {
    lock.withLock {
      if entries.isEmpty { entries = [state()] }
    }
  }

  private func append(before: HeapState<State>, after: HeapState<State>) {
    lock.withLock {
      if entries.isEmpty {
        entries = [before]
        index = 0
      }
      if index + 1 < entries.count { entries.removeSubrange((index + 1)...) }
      entries.append(after)
      if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
      index = entries.count - 1
    }
  }
}

extension StateHistory where State: Equatable {
  /// Creates a history that records an entry whenever an action changes the state (by `==`).
  ///
  /// - Parameters:
  ///   - name: The name its ``HistoryAction``s carry; `"history"` by default.
  ///   - capacity: The most entries kept, at least 1.
  public convenience init(name: String = "history", capacity: Int = 100) {
    self.init(name: name, capacity: capacity, isDuplicate: ==)
  }
}

extension StateHistory {
  /// This history, recording the part at `path` of a store's larger state: undo covers that
  /// part only.
  ///
  /// ```swift
  /// let store = Store(
  ///   reducer: AppState.reducer, state: AppState(), plugins: [history.scoped(to: \.todos)])
  /// ```
  ///
  /// The store's reducer runs on the whole state; the history records the part after each
  /// action that changes it (whichever reducer changed it) and restores the part alone, so
  /// the rest of the state stays as it is. The whole state is never copied; the part is read
  /// before and after each action.
  ///
  /// - Parameter path: Where the recorded part is in the store's state.
  /// - Returns: A plugin for stores of `Root`.
  @inlinable
  public func scoped<Root>(to path: WritableKeyPath<Root, State>) -> ScopedHistory<Root, State> {
    // Inlinable, so that the part's accessors are specialised where the key path is written:
    // the history's reducer runs unspecialised (it is made through the plugin protocol), and
    // a key path projected there would cost a runtime walk twice per action.
    ScopedHistory(
      history: self, read: { root in root[keyPath: path] },
      write: { root, part in root[keyPath: path] = part },
      box: { root in HeapState(copying: root[keyPath: path]) })
  }

  /// A reducer of a larger state that records and restores the part `read` and `write` reach.
  fileprivate func recording<Root>(
    _ base: Reducer<Root>, read: @escaping (Root) -> State,
    write: @escaping (inout Root, State) -> Void, box: @escaping (Root) -> HeapState<State>
  ) -> Reducer<Root> {
    Reducer(
      unchecked: { [self] root, action in
        // No local of type `State` here, as in `recording(_:)`: each path in a function of
        // its own.
        if HistoryAction.isHistoryAction(action), let navigation = action as? HistoryAction,
          navigation.history == name
        {
          restore(navigation.command, into: &root, write: write)
          return
        }
        if MemoryLayout<State>.size > StoreCore<State>.largeStateSize {
          reduceLarge(base, &root, action, box: box)
        } else {
          reduceSmall(base, &root, action, read: read)
        }
      }, ())
  }

  /// `reduceLarge(_:_:_:)` for a part: copied straight into boxes by `box`, which
  /// ``scoped(to:)`` specialises where the key path is written (a part returned through a
  /// closure here would take a temporary of its size on the stack).
  @inline(never)
  fileprivate func reduceLarge<Root>(
    _ base: Reducer<Root>, _ root: inout Root, _ action: any Action,
    box: (Root) -> HeapState<State>
  ) {
    let before = box(root)
    base.reduce(&root, action)
    record(before: before, after: box(root))
  }

  /// `reduceSmall(_:_:_:)` for a part.
  @inline(never)
  fileprivate func reduceSmall<Root>(
    _ base: Reducer<Root>, _ root: inout Root, _ action: any Action, read: (Root) -> State
  ) {
    let before = read(root)
    base.reduce(&root, action)
    record(before: before, after: read(root))
  }

  /// Applies a navigation `command` to the part of `root` that `write` reaches.
  @inline(never)
  fileprivate func restore<Root>(
    _ command: HistoryAction.Command, into root: inout Root,
    write: (inout Root, State) -> Void
  ) {
    if let restored = move(command) { write(&root, restored.value) }
  }

  /// Connects the history to the store of `context`, so that navigation dispatches there.
  fileprivate func connect<Root>(_ context: StorePluginContext<Root>) -> Disposable {
    let dispatch = context.dispatch
    lock.withLock { self.dispatch = dispatch }
    return Disposables.create()
  }
}

/// A ``StateHistory`` of one part of a store's state (``StateHistory/scoped(to:)``).
public struct ScopedHistory<Root, Part>: StorePlugin {
  public typealias State = Root
  @usableFromInline let history: StateHistory<Part>
  @usableFromInline let read: (Root) -> Part
  @usableFromInline let write: (inout Root, Part) -> Void
  /// The part, copied into a box (for a part larger than the engine's inline limit).
  @usableFromInline let box: (Root) -> HeapState<Part>

  @inlinable
  init(
    history: StateHistory<Part>, read: @escaping (Root) -> Part,
    write: @escaping (inout Root, Part) -> Void, box: @escaping (Root) -> HeapState<Part>
  ) {
    self.history = history
    self.read = read
    self.write = write
    self.box = box
  }

  public func install(in setup: inout StorePluginSetup<Root>) {
    let history = self.history
    let read = self.read
    let write = self.write
    let box = self.box
    setup.wrapReducer { base in history.recording(base, read: read, write: write, box: box) }
    setup.onStart { store in history.connect(store) }
  }
}

extension StateHistory: StorePlugin {
  /// Wraps the store's reducer to record each state and restore recorded ones, and connects
  /// the history to the store so that its navigation methods dispatch there
  /// (``Store/init(reducer:state:middleware:plugins:)`` calls it). For a part of a larger
  /// state, install ``StorePlugin/scoped(to:)``.
  public func install(in setup: inout StorePluginSetup<State>) {
    setup.wrapReducer { [self] base in recording(base) }
    setup.onStart { [self] store in connect(store) }
  }
}
