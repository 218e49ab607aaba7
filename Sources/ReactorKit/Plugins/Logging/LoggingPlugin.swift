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
/// The thread that produces an event does only what it must: it checks the sink and the filter,
/// takes the action or the states before and after (copies that share storage, see
/// <doc:ThreadingContract>), a timestamp and a duration, and queues them. Rendering, diffing,
/// redaction and the sink run on the plugin's own serial queue, one event at a time, in the
/// order the events were produced, which is also their sequence number. ``flush()`` waits
/// until every event produced so far reached the sink (the stores' ``Store/flushPlugins()``
/// and freeing a store call it). A sink that drops everything (``LogSink/discarding``, or
/// ``LogSink/isEnabled`` returning `false`) and a filter that rejects the source, the kind or
/// the action (``LogFilter/actions``) cost a dispatch almost nothing: nothing is copied
/// or queued.
///
/// The queue holds at most `maximumQueuedEvents` events (10,000 by default): when a slow sink
/// lets it fill up, new events are dropped, counted in ``droppedEventCount``, and reported in
/// the log by a notice event from the source `"LoggingPlugin"` (``LogEvent/droppedEvents``)
/// as soon as there is room. The plugin may be shared by stores and reactors on any threads.
public final class LoggingPlugin: @unchecked Sendable {
  // Safety: `queue`, `isWriting`, `dropped`, `unreportedDrops`, `lastDropTimestamp` and
  // `firstDroppedKind` are guarded by `lock`; `sequence` is touched only by the writer (the
  // holder of `isWriting`); the rest is immutable. Queued events hold the values they render
  // (actions and states, which the threading contract requires to be values).
  private let sink: LogSink
  private let filter: LogFilter
  private let redaction: LogRedaction
  private let clock: LogClock
  private let maximumChangesPerEvent: Int
  private let maximumQueuedEvents: Int
  private let lock = Lock()
  private let drained = Condition()
  private var queue = Queue<PendingLogEvent>()
  private var sequence: UInt64 = 0
  private var isWriting = false
  private var dropped = 0
  private var unreportedDrops = 0
  private var lastDropTimestamp = Date(timeIntervalSince1970: 0)
  private var firstDroppedKind = LogEvent.Kind.action
  private let writer = DispatchQueue(label: "ReactorKit.LoggingPlugin", qos: .utility)
  private let names: RedactedNames

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
          guard logsActions || logsStates, sink.isEnabled(), filter.includesAction(action) else {
            return next(action)
          }
          if logsActions { log(source: source, kind: .action, value: action) }
          guard logsStates else { return next(action) }
          // Boxed: a large inline state kept across `next` would otherwise sit on this
          // thread's stack twice, next to the reduction's copy.
          let before = HeapState(getState)
          let start = clock.monotonicNanoseconds()
          next(action)
          let end = clock.monotonicNanoseconds()
          let after = HeapState(getState)
          logState(
            source: source, before: { before.redacted(by: redactions.value) },
            after: { after.redacted(by: redactions.value) }, start: start, end: end)
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
            if sink.isEnabled(), filter.includesAction(action) {
              log(source: source, kind: .action, value: action)
            }
            return next(action)
          } : nil,
        reduce: logsMutations || logsStates
          ? { [self] state, mutation, next in
            guard sink.isEnabled() else { return next(state, mutation) }
            if logsMutations { log(source: source, kind: .mutation, value: mutation) }
            guard logsStates else { return next(state, mutation) }
            let start = clock.monotonicNanoseconds()
            let newState = next(state, mutation)
            let end = clock.monotonicNanoseconds()
            logState(
              source: source, before: { redactions.redacting(state) },
              after: { redactions.redacting(newState) }, start: start, end: end)
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
    guard filter.includes(source: source, kind: kind), sink.isEnabled() else { return }
    emit(source: source, kind: kind, duration: nil) { (description, [], 0) }
  }

  /// Blocks until every event produced so far has been rendered and handed to the sink, then
  /// flushes the sink (a file sink syncs its file). Call it before reading what a sink
  /// received, and before the process exits.
  public func flush() {
    lock.lock()
    while isWriting || !queue.isEmpty || unreportedDrops > 0 {
      if !isWriting {
        // Nobody is writing: write the rest here.
        isWriting = true
        drainAndUnlock()
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
    // Safety: actions and mutations are values (the threading contract); only the writer
    // reads this one.
    let value = UncheckedSendable(value)
    emit(source: source, kind: kind, duration: nil) { [self] in
      (renderer.render(prepared(value.value)), [], 0)
    }
  }

  private func logState(
    source: String, before: @escaping () -> Any, after: @escaping () -> Any, start: UInt64,
    end: UInt64
  ) {
    emit(source: source, kind: .state, duration: .nanoseconds(Int64(clamping: end &- start))) {
      [self] in
      let renderer = self.renderer
      let redaction = self.redaction
      let (differences, omitted) = cappedValueDifferences(
        from: prepared(before()), to: prepared(after()), render: renderer.renderPart,
        isRedacted: { [names] in names.isRedacted($0) }, redactedText: redaction.replacement,
        renderSecret: redaction.redactsWholeValues ? nil : renderer.renderSecretPart,
        skipsEqualValues: true, identifiesElements: true, maximumCount: maximumChangesPerEvent)
      let changes = differences.map(LogEvent.Change.init)
      return (LogEvent.summary(of: changes, omitted: omitted), changes, omitted)
    }
  }

  // MARK: - Writing

  /// Queues an event whose text `render` makes on the writer, and starts the writer if it is
  /// idle.
  private func emit(
    source: String, kind: LogEvent.Kind, duration: Duration?,
    render: @escaping () -> (description: String, changes: [LogEvent.Change], omitted: Int)
  ) {
    let timestamp = clock.now()
    let event = PendingLogEvent(
      timestamp: timestamp, source: source, kind: kind, duration: duration, render: render)
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
    queue.append(event)
    guard !isWriting else {
      lock.unlock()
      return
    }
    isWriting = true
    lock.unlock()
    writer.async { [self] in
      lock.lock()
      drainAndUnlock()
    }
  }

  /// Queues the notice of the drops not reported yet, if any.
  private func queueNoticeLocked() {
    guard unreportedDrops > 0 else { return }
    let count = unreportedDrops
    unreportedDrops = 0
    let description =
      "\(count) event\(count == 1 ? "" : "s") dropped: the log's queue was full "
      + "(\(maximumQueuedEvents) events)"
    queue.append(
      PendingLogEvent(
        timestamp: lastDropTimestamp, source: Self.noticeSource, kind: firstDroppedKind,
        duration: nil, droppedEvents: count, render: { (description, [], 0) }))
  }

  /// Renders queued events and hands them to the sink until none is left. Called with `lock`
  /// held and `isWriting` set by the caller; returns with `lock` released.
  private func drainAndUnlock() {
    while true {
      if queue.isEmpty { queueNoticeLocked() }
      guard let pending = queue.popFirst() else { break }
      lock.unlock()
      write(pending)
      lock.lock()
    }
    isWriting = false
    drained.broadcast()
    lock.unlock()
  }

  /// Renders `pending`, applies the filter's last check, numbers it and hands it to the sink.
  /// Only the holder of `isWriting` calls it.
  private func write(_ pending: PendingLogEvent) {
    let (description, changes, omitted) = pending.render()
    var event = LogEvent(
      sequence: 0, timestamp: pending.timestamp, source: pending.source, kind: pending.kind,
      description: description, changes: changes, duration: pending.duration,
      omittedChanges: omitted, droppedEvents: pending.droppedEvents)
    if pending.droppedEvents == 0, let isIncluded = filter.isIncluded, !isIncluded(event) {
      return
    }
    sequence += 1
    event.sequence = sequence
    sink.receive(event)
  }
}

/// An event waiting for the writer: what the producing thread knew (when, who, what kind, how
/// long) and how to render the rest.
private struct PendingLogEvent {
  let timestamp: Date
  let source: String
  let kind: LogEvent.Kind
  let duration: Duration?
  var droppedEvents = 0
  let render: () -> (description: String, changes: [LogEvent.Change], omitted: Int)
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
