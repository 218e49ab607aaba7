import Foundation
import ReactorKit
import ReactorKitStreams

/// How strictly a ``TestStore`` checks.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change must be described exactly, and every received action asserted.
  case on
  /// Only what a test asserts is checked: state closures check the fields they set, and
  /// received actions that are not asserted are skipped.
  case off
}

/// A wrapper around a `Store` that asserts every state change and every action middleware
/// dispatched, exhaustively (in the style of The Composable Architecture's `TestStore`).
///
/// ```swift
/// let store = TestStore(reducer: counter, state: Counter(), middleware: [effects])
/// store.send(CounterAction.increment) { $0.count = 1 }
/// store.receive(CounterAction.saved) { $0.isSaved = true }
/// store.finish()
/// ```
///
/// - ``send(_:assert:fileID:filePath:line:column:)`` dispatches an action and asserts the state
///   after the reductions it caused directly (after the middleware chain: none if middleware
///   dropped it, several if middleware multiplied it).
/// - ``receive(_:timeout:assert:fileID:filePath:line:column:)-(A,_,_,_,_,_,_)`` (an action
///   equal to the one given) and
///   ``receive(_:timeout:assert:fileID:filePath:line:column:)-((Action)->Bool,_,_,_,_,_,_)``
///   (an action matching a predicate) assert, in order, the actions that reached the reducer
///   without being sent by the test (dispatched by middleware or subscribers), one reduction
///   each, with their state change.
/// - In `async` code, the async forms of `receive` (with a `Duration` timeout, one second by
///   default) wait for the action without blocking the thread, so effects that dispatch from
///   the main actor can run while a `@MainActor` test waits.
/// - At the end (``finish(timeout:fileID:filePath:line:column:)``, or when the test store is
///   freed), with exhaustivity on, effects still running (after waiting for them up to a
///   timeout; without waiting when freed) and received actions that were not asserted fail
///   the test; ``cancelInFlightEffects()`` ends effects a test does not wait for.
///
/// Failures are reported to Swift Testing inside a Swift Testing test and to XCTest otherwise,
/// at the assertion's call site; replace ``reportFailure`` to inspect them instead.
public final class TestStore<State: Equatable> {
  /// The store under test.
  public let store: Store<State>
  /// How strictly to check; ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity = .on
  /// Receives every failure. Defaults to ``TestStoreFailure/reportToTestFramework()``;
  /// replace it to test failure messages.
  public var reportFailure: (TestStoreFailure) -> Void = { $0.reportToTestFramework() }
  /// The state as asserted so far (the state after the last asserted action).
  public private(set) var state: State

  private let recorder = ReceivedQueue<StoreReduction<State>>()
  private var subscription: Disposable?
  private var isFinished = false
  private let origin: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)

  /// Creates a test store around a new store.
  ///
  /// - Parameters:
  ///   - reducer: The reducer under test.
  ///   - state: The initial state.
  ///   - middleware: The middleware under test.
  ///   - fileID: The file ID of the call site, where failures found when the test store is
  ///     freed are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public convenience init(
    reducer: Reducer<State>, state: State, middleware: [Middleware<State>] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      store: Store(reducer: reducer, state: state, middleware: middleware), fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Creates a test store around a new store with plugins, installed as
  /// `Store(reducer:state:middleware:plugins:)` installs them.
  ///
  /// ```swift
  /// let history = StateHistory<TodosState>()
  /// let store = TestStore(
  ///   reducer: appReducer, state: AppState(), plugins: [history.scoped(to: \.todos)])
  /// store.send(TodoAction.add("Milk")) { $0.todos.items = ["Milk"] }
  /// history.stepBack()
  /// store.receive({ $0 is HistoryAction }) { $0.todos.items = [] }
  /// ```
  ///
  /// Actions a plugin dispatches (an undo history's navigation) are received actions.
  ///
  /// - Parameters:
  ///   - reducer: The reducer under test.
  ///   - state: The initial state.
  ///   - middleware: The middleware under test, run before the plugins'.
  ///   - plugins: The plugins to install, in order.
  ///   - fileID: The file ID of the call site, where failures found when the test store is
  ///     freed are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public convenience init(
    reducer: Reducer<State>, state: State, middleware: [Middleware<State>] = [],
    plugins: [any StorePlugin<State>],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      store: Store(reducer: reducer, state: state, middleware: middleware, plugins: plugins),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Creates a test store around an existing store, starting from its current state.
  ///
  /// Only reductions after this point are recorded.
  ///
  /// - Parameters:
  ///   - store: The store under test.
  ///   - fileID: The file ID of the call site, where failures found when the test store is
  ///     freed are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public init(
    store: Store<State>, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.store = store
    state = store.currentState
    origin = (fileID, filePath, line, column)
    let recorder = self.recorder
    subscription = store.observeReductions { recorder.append($0) }
  }

  deinit {
    if !isFinished {
      // Reports without waiting for running effects: a deinit may run on any thread, at any
      // time (XCTest frees a test case's properties after the suite).
      let (fileID, filePath, line, column) = origin
      finish(timeout: 0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// Dispatches `action` and asserts the state after the reductions it caused directly.
  ///
  /// With exhaustivity on, `updateExpected` receives the state as asserted so far and must
  /// turn it into exactly the new state; without it, the state must not change. Actions
  /// received earlier must have been asserted first. With exhaustivity off, `updateExpected`
  /// receives the actual new state, and only what it changes is checked.
  ///
  /// - Parameters:
  ///   - action: The action to dispatch.
  ///   - updateExpected: Describes the expected state change.
  ///   - fileID: The file ID of the call site, where this assertion's failures are reported.
  ///     Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public func send(
    _ action: any Action, assert updateExpected: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let pending = recorder.takeAll()
    if !pending.isEmpty {
      if exhaustivity == .on {
        fail(
          "\(counted(pending.count, "received action")) must be asserted before sending "
            + "\(renderValue(action)): \(list(pending)).", at: location)
      }
      state = pending.last!.after
    }
    let tag = nextTag()
    store.dispatch(action, tag: tag)
    let own = recorder.take { $0.tag == tag }
    let actual = own.last?.after ?? state
    check(actual, updateExpected, after: "sending \(renderValue(action))", at: location)
  }

  /// Asserts that the next received action matches `isMatching`, and its state change.
  ///
  /// A received action is one that reached the reducer without being sent by the test, such
  /// as an action a middleware dispatched. With exhaustivity off, received actions that don't
  /// match are skipped.
  ///
  /// - Parameters:
  ///   - isMatching: Whether an action is the one expected.
  ///   - timeout: How long to wait for the action when it was not received yet, in seconds
  ///     (for actions dispatched from other threads).
  ///   - updateExpected: Describes the expected state change (see
  ///     ``send(_:assert:fileID:filePath:line:column:)``).
  ///   - fileID: The file ID of the call site, where this assertion's failures are reported.
  ///     Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  @available(
    *, noasync,
    message: "in async code, use 'await store.receive(…)'; a timeout is a Duration (.seconds(1))"
  )
  public func receive(
    _ isMatching: (any Action) -> Bool, timeout: TimeInterval = 0,
    assert updateExpected: ((inout State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    receive(
      description: "an action matching the predicate", isMatching, timeout: timeout,
      updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next received action equals `expected`, and its state change.
  ///
  /// Compares with `==`; otherwise the same as
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:)-((Action)->Bool,_,_,_,_,_,_)``.
  @available(
    *, noasync,
    message: "in async code, use 'await store.receive(…)'; a timeout is a Duration (.seconds(1))"
  )
  public func receive<A: Action & Equatable>(
    _ expected: A, timeout: TimeInterval = 0,
    assert updateExpected: ((inout State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    receive(
      description: renderValue(expected), { ($0 as? A) == expected }, timeout: timeout,
      updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next received action matches `isMatching`, and its state change,
  /// waiting for it without blocking the thread.
  ///
  /// The async form of
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:)-((Action)->Bool,_,_,_,_,_,_)``,
  /// chosen in `async` code. While it waits, the caller's actor is free, so it works in a
  /// `@MainActor` test whose effects dispatch from the main actor (`Effect.run`, a reactor's
  /// `run`, `observe(on: MainScheduler.instance)`), where the blocking form would wait for an
  /// action the blocked main thread can never dispatch.
  ///
  /// - Parameters:
  ///   - isMatching: Whether an action is the one expected.
  ///   - timeout: How long to wait for the action when it was not received yet (real time).
  ///     One second by default.
  ///   - updateExpected: Describes the expected state change (see
  ///     ``send(_:assert:fileID:filePath:line:column:)``).
  ///   - fileID: The file ID of the call site, where this assertion's failures are reported.
  ///     Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  ///   - isolation: The caller's actor. Leave the default.
  public func receive(
    _ isMatching: (any Action) -> Bool, timeout: Duration = .seconds(1),
    assert updateExpected: ((inout State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await receive(
      description: "an action matching the predicate", isMatching, timeout: timeout,
      updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next received action equals `expected`, and its state change, waiting
  /// for it without blocking the thread.
  ///
  /// Compares with `==`; otherwise the same as
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:isolation:)-((Action)->Bool,_,_,_,_,_,_,_)``.
  public func receive<A: Action & Equatable>(
    _ expected: A, timeout: Duration = .seconds(1),
    assert updateExpected: ((inout State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await receive(
      description: renderValue(expected), { ($0 as? A) == expected }, timeout: timeout,
      updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Drops every received action not asserted yet, accepting the state they led to.
  public func skipReceivedActions() {
    if let last = recorder.takeAll().last { state = last.after }
  }

  /// Cancels every effect of the store's `Middleware.effects` stages still running, so the
  /// test can end without waiting for them; nothing they emit afterwards is dispatched.
  ///
  /// For effects a test does not wait for, such as a timer that runs until the feature is
  /// closed. Effects started later run as usual.
  public func cancelInFlightEffects() {
    store.cancelInFlightEffects()
  }

  /// Ends the test: with exhaustivity on, effects still running and received actions that
  /// were not asserted fail it.
  ///
  /// First waits up to `timeout` for the effects of the store's `Middleware.effects` stages to
  /// end (running the current run loop meanwhile, so effects that dispatch on the main queue
  /// can run). An effect still running then fails the test: receive what it dispatches,
  /// advance the `TestScheduler` or `TestClock` it waits on until it ends, cancel it with an
  /// action whose effect is `Effect.cancel(id:)`, or end it with ``cancelInFlightEffects()``.
  /// Work that middleware starts by other means (a `DispatchQueue`) is not seen.
  ///
  /// In `async` code, the async form
  /// ``finish(timeout:fileID:filePath:line:column:isolation:)`` is chosen: it waits without
  /// blocking the caller's actor, where `Effect.run` operations run.
  ///
  /// Called automatically when the test store is freed, if not called before, without
  /// waiting for running effects.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for running effects to end, in seconds. One second by
  ///     default.
  ///   - fileID: The file ID of the call site, where running effects and unasserted actions
  ///     are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  @available(
    *, noasync,
    message: "in async code, use 'await store.finish()'; a timeout is a Duration (.seconds(1))"
  )
  public func finish(
    timeout: TimeInterval = 1, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    guard !isFinished else { return }
    isFinished = true
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on {
      waitBlocking(until: deadline(afterSeconds: timeout)) { store.inFlightEffectIDs.isEmpty }
    }
    end(at: location, waitCancelled: false)
  }

  /// Ends the test, waiting for running effects without blocking the caller's actor: with
  /// exhaustivity on, effects still running and received actions that were not asserted fail
  /// it.
  ///
  /// The async form of ``finish(timeout:fileID:filePath:line:column:)``, chosen in `async`
  /// code. While it waits, the caller's actor is free, so `Effect.run` operations (which run
  /// on the main actor) can end while a `@MainActor` test waits.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for running effects to end (real time). One second by
  ///     default.
  ///   - fileID: The file ID of the call site, where running effects and unasserted actions
  ///     are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  ///   - isolation: The caller's actor. Leave the default.
  public func finish(
    timeout: Duration = .seconds(1), fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    guard !isFinished else { return }
    isFinished = true
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on {
      let deadline = ContinuousClock.now.advanced(by: max(timeout, .zero))
      await waitSuspending(until: deadline) { store.inFlightEffectIDs.isEmpty }
    }
    end(at: location, waitCancelled: Task.isCancelled)
  }

  // MARK: - Private

  /// The end of ``finish(timeout:fileID:filePath:line:column:)``, after waiting for the
  /// effects: fails for effects still running and received actions not asserted (with
  /// exhaustivity on), and stops recording.
  private func end(at location: CallSite, waitCancelled: Bool) {
    if exhaustivity == .on { reportInFlightEffects(at: location, waitCancelled: waitCancelled) }
    subscription?.dispose()
    subscription = nil
    let pending = recorder.takeAll()
    guard !pending.isEmpty else { return }
    if exhaustivity == .on {
      fail(
        "\(counted(pending.count, "received action")) \(pending.count == 1 ? "was" : "were") "
          + "not asserted before the test ended: \(list(pending)). Assert "
          + "\(pending.count == 1 ? "it" : "them") with receive, or skip "
          + "\(pending.count == 1 ? "it" : "them") with skipReceivedActions().",
        at: location)
    }
    state = pending.last!.after
  }

  /// Fails once for the store's effects still running, naming each one's ids.
  private func reportInFlightEffects(at location: CallSite, waitCancelled: Bool) {
    let running = store.inFlightEffectIDs
    guard !running.isEmpty else { return }
    let one = running.count == 1
    let it = one ? "it" : "them"
    let names = running.map { ids in
      ids.isEmpty
        ? "without an id"
        : "cancellable by " + ids.map { renderValue($0.base) }.joined(separator: ", ")
    }
    // An effect without an id cannot be cancelled by an action.
    let cancelByID =
      running.contains { !$0.isEmpty } ? "cancel \(it) (Effect.cancel(id:)), " : ""
    let cancelled = waitCancelled ? " The test was cancelled while finish waited." : ""
    fail(
      "\(counted(running.count, "effect")) \(one ? "was" : "were") still running when the test "
        + "ended (\(names.joined(separator: "; "))). Receive what \(one ? "it" : "they") "
        + "dispatch\(one ? "es" : ""), advance the test scheduler or clock \(one ? "it" : "they")"
        + " wait\(one ? "s" : "") on until \(one ? "it ends" : "they end"), \(cancelByID)or end "
        + "\(it) with cancelInFlightEffects().\(cancelled)",
      at: location)
  }

  /// Counts the reductions so far as asserted and their last state as the asserted state:
  /// `replay(_:)` checks them against its recording instead.
  func acceptReductions() {
    if let last = recorder.takeAll().last { state = last.after }
  }

  private func receive(
    description: String, _ isMatching: (any Action) -> Bool, timeout: TimeInterval,
    _ updateExpected: ((inout State) -> Void)?, at location: CallSite
  ) {
    if let failure = recorder.receive(
      description, timeout: timeout, noun: .action, hint: { "" },
      { assertReceived($0, description, isMatching, updateExpected, at: location) })
    {
      fail(failure, at: location)
    }
  }

  private func receive(
    description: String, _ isMatching: (any Action) -> Bool, timeout: Duration,
    _ updateExpected: ((inout State) -> Void)?, at location: CallSite,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    if let failure = await recorder.receive(
      description, timeout: timeout, noun: .action, hint: { "" },
      { assertReceived($0, description, isMatching, updateExpected, at: location) })
    {
      fail(failure, at: location)
    }
  }

  /// Asserts a received reduction against the expected one: returns `true` when the
  /// assertion is over (matched, or failed), `false` when the reduction was skipped (with
  /// exhaustivity off) and the next one must be looked at.
  private func assertReceived(
    _ reduction: StoreReduction<State>, _ description: String,
    _ isMatching: (any Action) -> Bool, _ updateExpected: ((inout State) -> Void)?,
    at location: CallSite
  ) -> Bool {
    if isMatching(reduction.action) {
      check(
        reduction.after, updateExpected, after: "receiving \(renderValue(reduction.action))",
        at: location)
      return true
    }
    state = reduction.after
    if exhaustivity == .on {
      fail(
        "Expected to receive \(description), but received \(renderValue(reduction.action)).",
        at: location)
      return true
    }
    return false
  }

  private func check(
    _ actual: State, _ updateExpected: ((inout State) -> Void)?, after event: String,
    at location: CallSite
  ) {
    defer { state = actual }
    if let message = stateAssertionFailure(
      asserted: state, actual: actual, updateExpected, exhaustivity: exhaustivity, after: event)
    {
      fail(message, at: location)
    }
  }

  private func fail(_ message: String, at location: CallSite) {
    reportFailure(location.failure(message))
  }

  private func list(_ reductions: [StoreReduction<State>]) -> String {
    reductions.map { renderValue($0.action) }.joined(separator: ", ")
  }
}

/// Tags that mark the actions a test store sent, unique in the process.
private let tagCounter = AtomicBox<UInt64>(0)

private func nextTag() -> UInt64 {
  tagCounter.add(1, ordering: .relaxed).newValue
}
