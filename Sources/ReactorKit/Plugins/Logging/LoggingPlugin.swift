import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes one ordered log of what happens in a store and in any number of reactors: actions,
/// mutations, and the state changes they cause, with timings.
///
/// Install it in one line in a store and on each reactor; every event goes to one ``LogSink``
/// in one sequence:
///
/// ```swift
/// let logger = LoggingPlugin(sink: .standardError())
/// let store = Store(reducer: app, state: AppState(), plugins: [logger.forStore()])
/// todoListReactor.install(logger)
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
/// A state event lists at most `maximumChangesPerEvent` changes (100 by default); the rest are
/// counted, not rendered, and reported as `… and N more` (``LogEvent/omittedChanges``), so an
/// insertion at the front of a long array costs one short event.
///
/// ## Threading
///
/// Events are numbered in the order they are produced and handed to the sink in that order,
/// one at a time. The thread that produces an event while nobody is writing writes it, and
/// then at most 64 events other threads queued meanwhile; if more are
/// waiting, a background queue of the plugin's takes over, so no thread is kept writing
/// others' events for long. A thread that produces an event while another is writing queues
/// it and moves on. The queue holds at most `maximumQueuedEvents` events (10,000 by default):
/// when a slow sink lets it fill up, new events are dropped, counted in
/// ``droppedEventCount``, and reported in the log by a notice event from the source
/// `"LoggingPlugin"` (``LogEvent/droppedEvents``) as soon as there is room. The plugin may be
/// shared by stores and reactors on any threads.
public final class LoggingPlugin: @unchecked Sendable {
  // Safety: `queue`, `sequence`, `isWriting`, `dropped`, `unreportedDrops`,
  // `lastDropTimestamp` and `firstDroppedKind` are guarded by `lock`; the rest is immutable.
  private let sink: LogSink
  private let filter: LogFilter
  private let redaction: LogRedaction
  private let clock: LogClock
  private let maximumChangesPerEvent: Int
  private let maximumQueuedEvents: Int
  private let lock = Lock()
  private let drained = Condition()
  private var queue = Queue<LogEvent>()
  private var sequence: UInt64 = 0
  private var isWriting = false
  private var dropped = 0
  private var unreportedDrops = 0
  private var lastDropTimestamp = Date(timeIntervalSince1970: 0)
  private var firstDroppedKind = LogEvent.Kind.action
  private let writer = DispatchQueue(label: "ReactorKit.LoggingPlugin", qos: .utility)
  private let names: RedactedNames

  /// How many queued events the thread that produced an event writes, besides its own, before
  /// it hands the rest to the plugin's background queue.
  static let writeBatchLimit = 64

  /// The source of the plugin's own notices.
  static let noticeSource = "LoggingPlugin"

  /// Creates a logging plugin.
  ///
  /// - Parameters:
  ///   - sink: Where events go; standard error as text by default.
  ///   - filter: Which events to write; all by default.
  ///   - redaction: Which field names are secret; the app's shared setting,
  ///     ``LogRedaction/shared`` (``LogRedaction/default`` unless changed), by default.
  ///   - clock: Timestamps and durations; the system clocks by default.
  ///   - maximumChangesPerEvent: The most changes a state event lists; the rest are counted.
  ///   - maximumQueuedEvents: The most events waiting for the sink; more are dropped and
  ///     counted.
  public init(
    sink: LogSink = .standardError(), filter: LogFilter = .all,
    redaction: LogRedaction = .shared, clock: LogClock = .system,
    maximumChangesPerEvent: Int = 100, maximumQueuedEvents: Int = 10_000
  ) {
    self.sink = sink
    self.filter = filter
    self.redaction = redaction
    self.names = RedactedNames(redaction)
    self.clock = clock
    self.maximumChangesPerEvent = max(0, maximumChangesPerEvent)
    self.maximumQueuedEvents = max(1, maximumQueuedEvents)
  }

  /// How many events were dropped so far because the queue was full (each drop is also
  /// reported in the log).
  public var droppedEventCount: Int {
    lock.withLock { dropped }
  }

  // MARK: - Store

  /// The plugin that logs a store: each action that reaches the reducer and the state change
  /// it causes; the store's ``Store/flushPlugins()`` flushes the log, and so does freeing the
  /// store.
  ///
  /// ```swift
  /// let store = Store(reducer: app, state: AppState(), plugins: [logger.forStore()])
  /// ```
  ///
  /// Its middleware runs after the store's own and after the middleware of plugins listed
  /// before it; list it last to log exactly what is reduced. The duration of a state event is
  /// the reduction plus the synchronous notification of the store's subscribers (reactors
  /// that consume slices log their own events in between).
  ///
  /// - Parameters:
  ///   - source: The name of the store in the log.
  ///   - redactions: Redactions applied to copies of the state before they are compared.
  /// - Returns: The plugin, for ``Store/init(reducer:state:middleware:plugins:)``.
  public func forStore<State>(
    source: String = "store", redacting redactions: [Redaction<State>] = []
  ) -> ForStore<State> {
    ForStore(logger: self, source: source, redactions: redactions)
  }

  /// A ``LoggingPlugin`` installed in a store (``LoggingPlugin/forStore(source:redacting:)``).
  public struct ForStore<State>: StorePlugin {
    let logger: LoggingPlugin
    let source: String
    let redactions: [Redaction<State>]

    public func install(in setup: inout StorePluginSetup<State>) {
      let logger = self.logger
      setup.addMiddleware(logger.middleware(source: source, redacting: redactions))
      setup.onFlush { logger.flush() }
      setup.onClose { logger.flush() }
    }
  }

  /// A middleware that logs each action it receives and the state change it causes: the
  /// low-level form of ``forStore(source:redacting:)``, for a logger at a chosen place in a
  /// middleware array.
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

  /// Logs `reactor`'s actions, mutations and state changes.
  @available(
    *, deprecated,
    message: "Install the logger on the reactor: 'reactor.install(logger, source:redacting:)'."
  )
  @discardableResult
  public func attach<R: Reactor>(
    to reactor: R, source: String? = nil, redacting redactions: [Redaction<R.State>] = []
  ) -> Disposable {
    install(on: reactor, source: source ?? String(describing: R.self), redacting: redactions)
  }
}

extension LoggingPlugin: ReactorPlugin {
  /// Logs `reactor`'s actions, mutations and state changes, through a ``ReactorHook``
  /// (``Reactor/install(_:source:redacting:)-(ReactorPlugin,_,_)`` calls it).
  ///
  /// The reactor keeps working as before; nothing in it needs to change. The duration of a
  /// state event is the time `reduce(state:mutation:)` took.
  ///
  /// - Parameters:
  ///   - reactor: The reactor to log.
  ///   - source: The name of the reactor in the log.
  ///   - redactions: Redactions applied to copies of the reactor's states.
  /// - Returns: A disposable that stops logging the reactor. Logging also stops when the
  ///   reactor is released.
  public func install<R: Reactor>(
    on reactor: R, source: String, redacting redactions: [Redaction<R.State>]
  ) -> Disposable {
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
}

extension LoggingPlugin {
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
    while isWriting || !queue.isEmpty || unreportedDrops > 0 {
      if !isWriting {
        // Nobody is writing: write the rest here.
        isWriting = true
        drainAndUnlock(budget: .max)
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
      isRedacted: { [names] in names.isRedacted($0) }, redactedText: redaction.replacement,
      redactsWholeValues: redaction.redactsWholeValues)
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
    let (differences, omitted) = cappedValueDifferences(
      from: prepared(before), to: prepared(after), render: renderer.renderPart,
      isRedacted: { [names] in names.isRedacted($0) }, redactedText: redaction.replacement,
      renderSecret: redaction.redactsWholeValues ? nil : renderer.renderSecretPart,
      skipsEqualValues: true, identifiesElements: true, maximumCount: maximumChangesPerEvent)
    let changes = differences.map(LogEvent.Change.init)
    emit(
      source: source, kind: .state,
      description: LogEvent.summary(of: changes, omitted: omitted), changes: changes,
      duration: .nanoseconds(Int64(clamping: end &- start)), omittedChanges: omitted)
  }

  // MARK: - Writing

  private func emit(
    source: String, kind: LogEvent.Kind, description: String, changes: [LogEvent.Change],
    duration: Duration?, omittedChanges: Int = 0
  ) {
    let timestamp = clock.now()
    var event = LogEvent(
      sequence: 0, timestamp: timestamp, source: source, kind: kind, description: description,
      changes: changes, duration: duration, omittedChanges: omittedChanges)
    if let isIncluded = filter.isIncluded {
      guard isIncluded(event) else { return }
    }
    lock.lock()
    guard queue.count < maximumQueuedEvents else {
      dropped += 1
      if unreportedDrops == 0 { firstDroppedKind = kind }
      unreportedDrops += 1
      lastDropTimestamp = timestamp
      lock.unlock()
      return
    }
    queueNoticeLocked()
    sequence += 1
    event.sequence = sequence
    queue.append(event)
    guard !isWriting else {
      lock.unlock()
      return
    }
    isWriting = true
    drainAndUnlock(budget: 1 + Self.writeBatchLimit)
  }

  /// Queues the notice of the drops not reported yet, if any.
  private func queueNoticeLocked() {
    guard unreportedDrops > 0 else { return }
    let count = unreportedDrops
    unreportedDrops = 0
    sequence += 1
    queue.append(
      LogEvent(
        sequence: sequence, timestamp: lastDropTimestamp, source: Self.noticeSource,
        kind: firstDroppedKind,
        description:
          "\(count) event\(count == 1 ? "" : "s") dropped: the log's queue was full "
          + "(\(maximumQueuedEvents) events)",
        droppedEvents: count))
  }

  /// Hands queued events to the sink, at most `budget` of them, then hands the rest to the
  /// background queue. Called with `lock` held and `isWriting` set by the caller; returns with
  /// `lock` released.
  private func drainAndUnlock(budget: Int) {
    var written = 0
    while true {
      if queue.isEmpty { queueNoticeLocked() }
      guard !queue.isEmpty else { break }
      guard written < budget else {
        // Others keep this thread busy: the background queue writes the rest.
        lock.unlock()
        writer.async { [self] in
          lock.lock()
          drainAndUnlock(budget: .max)
        }
        return
      }
      let event = queue.popFirst()!
      lock.unlock()
      sink.receive(event)
      written += 1
      lock.lock()
    }
    isWriting = false
    drained.broadcast()
    lock.unlock()
  }
}

/// ``LogRedaction/isRedacted(_:)`` remembered per name: a program has few field names, and
/// splitting each into words on every rendering would cost more than the lookup.
private final class RedactedNames: @unchecked Sendable {
  // Safety: `known` is guarded by `lock`; `redaction` is immutable.
  private let redaction: LogRedaction
  private let lock = Lock()
  private var known: [String: Bool] = [:]
  /// Names beyond this many (dictionary keys from data, say) are checked every time.
  private static let capacity = 4_096

  init(_ redaction: LogRedaction) {
    self.redaction = redaction
  }

  func isRedacted(_ name: String) -> Bool {
    if let answer = lock.withLock({ known[name] }) { return answer }
    let answer = redaction.isRedacted(name)
    lock.withLock {
      if known.count < Self.capacity { known[name] = answer }
    }
    return answer
  }
}
