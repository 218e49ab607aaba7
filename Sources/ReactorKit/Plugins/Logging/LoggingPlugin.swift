#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes one ordered log of what happens in a store and in any number of reactors: actions,
/// mutations, and the state changes they cause, with timings.
///
/// Attach it in one line to a store (as middleware) and to each reactor (as a hook); every
/// event goes to one ``LogSink`` in one sequence:
///
/// ```swift
/// let logger = LoggingPlugin(sink: .standardError())
/// let store = Store(reducer: app, state: AppState(), middleware: [logger.middleware()])
/// logger.attach(to: todoListReactor)
/// ```
///
/// ```text
/// 2025-01-31T09:15:02.125Z #1 [store] action TodoAction.add(title: "Milk")
/// 2025-01-31T09:15:02.126Z #2 [store] state 0.031 ms
///   \.todos.items[0]: (none) → Todo(id: 1, title: "Milk", isDone: false)
/// ```
///
/// A state event lists the paths that changed (a reflection diff of the states before and
/// after) instead of the whole state. Parts that are `Equatable` and equal are skipped without
/// reflection, so a small change in a large state costs little; a type whose `==` ignores some
/// fields hides their changes. Secrets are redacted by field name everywhere
/// (``LogRedaction``), and by key path or closure per store or reactor (``Redaction``).
/// ``LogFilter`` picks sources and kinds before any rendering happens, so filtered-out events
/// cost almost nothing.
///
/// ## Threading
///
/// Events are numbered in the order they are produced and handed to the sink in that order,
/// one at a time, by whichever thread produced them (a thread that produces an event while
/// another is writing queues it and moves on). The plugin may be shared by stores and
/// reactors on any threads.
public final class LoggingPlugin: @unchecked Sendable {
  // Safety: `queue`, `sequence`, `isWriting` and `written` are guarded by `lock`; the rest is
  // immutable.
  private let sink: LogSink
  private let filter: LogFilter
  private let redaction: LogRedaction
  private let clock: LogClock
  private let lock = Lock()
  private let drained = Condition()
  private var queue = Queue<LogEvent>()
  private var sequence: UInt64 = 0
  private var isWriting = false

  /// Creates a logging plugin.
  ///
  /// - Parameters:
  ///   - sink: Where events go; standard error as text by default.
  ///   - filter: Which events to write; all by default.
  ///   - redaction: Which field names are secret; ``LogRedaction/default`` by default.
  ///   - clock: Timestamps and durations; the system clocks by default.
  public init(
    sink: LogSink = .standardError(), filter: LogFilter = .all,
    redaction: LogRedaction = .default, clock: LogClock = .system
  ) {
    self.sink = sink
    self.filter = filter
    self.redaction = redaction
    self.clock = clock
  }

  // MARK: - Store

  /// A middleware that logs each action it receives and the state change it causes.
  ///
  /// Put it last in the store's middleware array: it then logs exactly the actions that
  /// reach the reducer, and the duration of a state event is the reduction plus the
  /// synchronous notification of the store's subscribers (reactors that consume slices log
  /// their own events in between). Placed earlier, it logs actions as dispatched and the
  /// state change made by everything after it.
  ///
  /// - Parameters:
  ///   - source: The name of the store in the log.
  ///   - redactions: Redactions applied to copies of the state before they are compared.
  /// - Returns: The middleware.
  public func middleware<State>(
    source: String = "store", redacting redactions: [Redaction<State>] = []
  ) -> Middleware<State> {
    let logsActions = filter.includes(source: source, kind: .action)
    let logsStates = filter.includes(source: source, kind: .state)
    // Safety: the redactions are applied by the store's serial processing only, to copies of
    // its state; `Redaction` is not `Sendable` only because its closure is not `@Sendable`.
    let redactions = UncheckedSendable(redactions)
    return .redux { getState, _ in
      { next in
        { [self] action in
          if logsActions { log(source: source, kind: .action, value: action) }
          guard logsStates else { return next(action) }
          let before = getState()
          let start = clock.monotonicNanoseconds()
          next(action)
          let end = clock.monotonicNanoseconds()
          logState(
            source: source, before: redactions.value.redacting(before),
            after: redactions.value.redacting(getState()), start: start, end: end)
        }
      }
    }
  }

  // MARK: - Reactors

  /// Logs `reactor`'s actions, mutations and state changes, through a ``ReactorHook``.
  ///
  /// The reactor keeps working as before; nothing in it needs to change. The duration of a
  /// state event is the time `reduce(state:mutation:)` took.
  ///
  /// - Parameters:
  ///   - reactor: The reactor to log.
  ///   - source: The name of the reactor in the log; its type name by default.
  ///   - redactions: Redactions applied to copies of the reactor's states.
  /// - Returns: A disposable that stops logging the reactor. Logging also stops when the
  ///   reactor is released.
  @discardableResult
  public func attach<R: Reactor>(
    to reactor: R, source: String? = nil, redacting redactions: [Redaction<R.State>] = []
  ) -> Disposable {
    let source = source ?? String(describing: R.self)
    let logsActions = filter.includes(source: source, kind: .action)
    let logsMutations = filter.includes(source: source, kind: .mutation)
    let logsStates = filter.includes(source: source, kind: .state)
    return reactor.addHook(
      ReactorHook(
        mutate: logsActions
          ? { [self] action, next in
            log(source: source, kind: .action, value: action)
            return next(action)
          } : nil,
        reduce: logsMutations || logsStates
          ? { [self] state, mutation, next in
            if logsMutations { log(source: source, kind: .mutation, value: mutation) }
            guard logsStates else { return next(state, mutation) }
            let start = clock.monotonicNanoseconds()
            let newState = next(state, mutation)
            let end = clock.monotonicNanoseconds()
            logState(
              source: source, before: redactions.redacting(state),
              after: redactions.redacting(newState), start: start, end: end)
            return newState
          } : nil))
  }

  // MARK: - Custom events

  /// Logs an event of your own, for example a note from a service.
  ///
  /// - Parameters:
  ///   - source: Who produced it.
  ///   - kind: Its kind, for filtering.
  ///   - description: The text to log, as is (it is not redacted).
  public func log(source: String, kind: LogEvent.Kind, description: String) {
    guard filter.includes(source: source, kind: kind) else { return }
    emit(source: source, kind: kind, description: description, changes: [], duration: nil)
  }

  /// Blocks until every event produced so far has been handed to the sink, then flushes the
  /// sink (a file sink syncs its file).
  public func flush() {
    lock.lock()
    while isWriting || !queue.isEmpty {
      if !isWriting {
        // Nobody is writing: write the rest here.
        lock.unlock()
        drain()
        lock.lock()
        continue
      }
      drained.wait(lock)
    }
    lock.unlock()
    sink.flush()
  }

  // MARK: - Rendering

  private var renderer: ValueRenderer {
    let redaction = self.redaction
    return ValueRenderer(
      isRedacted: { redaction.isRedacted($0) }, redactedText: redaction.replacement)
  }

  private func prepared(_ value: Any) -> Any {
    redaction.redactValue?(value) ?? value
  }

  private func log(source: String, kind: LogEvent.Kind, value: Any) {
    emit(
      source: source, kind: kind, description: renderer.render(prepared(value)), changes: [],
      duration: nil)
  }

  private func logState(source: String, before: Any, after: Any, start: UInt64, end: UInt64) {
    let renderer = self.renderer
    let redaction = self.redaction
    let changes = valueDifferences(
      from: prepared(before), to: prepared(after), render: renderer.renderPart,
      isRedacted: { redaction.isRedacted($0) }, redactedText: redaction.replacement,
      skipsEqualValues: true
    ).map(LogEvent.Change.init)
    emit(
      source: source, kind: .state, description: LogEvent.summary(of: changes),
      changes: changes, duration: .nanoseconds(Int64(clamping: end &- start)))
  }

  // MARK: - Writing

  private func emit(
    source: String, kind: LogEvent.Kind, description: String, changes: [LogEvent.Change],
    duration: Duration?
  ) {
    let timestamp = clock.now()
    var event = LogEvent(
      sequence: 0, timestamp: timestamp, source: source, kind: kind, description: description,
      changes: changes, duration: duration)
    if let isIncluded = filter.isIncluded {
      guard isIncluded(event) else { return }
    }
    lock.lock()
    sequence += 1
    event.sequence = sequence
    queue.append(event)
    let shouldWrite = !isWriting
    lock.unlock()
    if shouldWrite { drain() }
  }

  /// Hands queued events to the sink until the queue is empty. One thread at a time.
  private func drain() {
    lock.lock()
    guard !isWriting else {
      lock.unlock()
      return
    }
    isWriting = true
    while let event = queue.popFirst() {
      lock.unlock()
      sink.receive(event)
      lock.lock()
    }
    isWriting = false
    drained.broadcast()
    lock.unlock()
  }
}
