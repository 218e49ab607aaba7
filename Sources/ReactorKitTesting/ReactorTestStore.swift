import Foundation
import ReactorKit
import ReactorKitStreams

/// An exhaustive test harness for a reactor: every mutation it reduces is asserted, in
/// order, with the state change it makes (the reactor counterpart of ``TestStore``).
///
/// ```swift
/// let store = ReactorTestStore(reactor: CounterReactor(scheduler: scheduler))
/// store.send(.refresh)
/// store.receive(.setLoading(true)) { $0.isLoading = true }
/// scheduler.advance(by: .seconds(1))
/// store.receive(.setCount(3)) { $0.count = 3 }
/// store.receive(.setLoading(false)) { $0.isLoading = false }
/// store.finish()
/// ```
///
/// - ``send(_:fileID:filePath:line:column:)`` sends an action to `reactor.action`. Mutations
///   received earlier must have been asserted first.
/// - `receive` asserts the next mutation the reactor reduced (one its `mutate` emitted, or
///   one `transform(mutation:)` merged in, such as a global state slice), with the state
///   `reduce(state:mutation:)` returned for it. Mutations that arrive later (after a
///   `TestScheduler` advances, from another thread, from a `run` task) are waited for: up to
///   a `TimeInterval` in blocking code, without blocking the caller's actor (a `Duration`,
///   one second by default) in `async` code.
/// - ``finish(timeout:fileID:filePath:line:column:)`` (or freeing the test store) ends the
///   test: with exhaustivity on, mutations not asserted and actions whose mutation streams are
///   still running fail it. ``cancelInFlightMutations()`` ends streams a test does not wait
///   for, such as a timer.
///
/// The state asserted is what `reduce(state:mutation:)` returns, before
/// `transform(state:)`. The harness observes the reactor through a `ReactorHook`, so it
/// sees nothing while the reactor's stub is enabled (sending then fails, saying so).
/// Failures are reported like ``TestStore``'s: to Swift Testing inside a Swift Testing test,
/// to XCTest otherwise; replace ``reportFailure`` to inspect them.
public final class ReactorTestStore<R: Reactor> where R.State: Equatable {
  /// The reactor under test.
  public let reactor: R
  /// How strictly to check; ``Exhaustivity/on`` by default. With it off, state closures check
  /// only the fields they set, unasserted mutations are skipped, and running work is allowed
  /// at the end.
  public var exhaustivity: Exhaustivity = .on
  /// Receives every failure. Defaults to ``TestStoreFailure/reportToTestFramework()``;
  /// replace it to test failure messages.
  public var reportFailure: (TestStoreFailure) -> Void = { $0.reportToTestFramework() }
  /// The state as asserted so far (the state after the last asserted mutation).
  public private(set) var state: R.State

  private let received = ReceivedQueue<ReducedMutation>()
  private let work = MutationWork()
  private var hook: Disposable?
  private var isFinished = false
  private let origin: CallSite

  /// A mutation the reactor reduced, and the state `reduce` returned for it.
  private struct ReducedMutation {
    let mutation: R.Mutation
    let after: R.State
  }

  /// Creates a test store around `reactor`, starting from its current state.
  ///
  /// Only mutations reduced from now on are recorded. Create the reactor with test
  /// dependencies (a `TestScheduler`, a `TestClock`, fakes) before.
  ///
  /// - Parameters:
  ///   - reactor: The reactor under test; its stub must be off.
  ///   - fileID: The file ID of the call site, where failures found when the test store is
  ///     freed are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public init(
    reactor: R, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.reactor = reactor
    origin = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    state = reactor.currentState
    let received = self.received
    let work = self.work
    hook = reactor.addHook(
      ReactorHook(
        mutate: { action, next in
          let mutations = next(action)
          let name = renderValue(action)
          return Observable.deferred {
            let id = work.begin(name)
            return mutations.take(until: work.cancellation).do(onDispose: { work.end(id) })
          }
        },
        reduce: { state, mutation, next in
          let after = next(state, mutation)
          received.append(ReducedMutation(mutation: mutation, after: after))
          return after
        }))
  }

  deinit {
    if !isFinished {
      // Reports without waiting for running work: a deinit may run on any thread, at any time.
      let site = origin
      finish(
        timeout: 0, fileID: site.fileID, filePath: site.filePath, line: site.line,
        column: site.column)
    }
  }

  /// Sends `action` to the reactor (`reactor.action.onNext(action)`).
  ///
  /// With exhaustivity on, every mutation received earlier must have been asserted.
  /// Mutations the action produces at once are asserted afterwards, with `receive`.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - fileID: The file ID of the call site, where this assertion's failures are reported.
  ///     Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public func send(
    _ action: R.Action, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let pending = received.takeAll()
    if let last = pending.last {
      if exhaustivity == .on {
        fail(
          "\(counted(pending.count, "received mutation")) must be asserted before sending "
            + "\(renderValue(action)): \(list(pending)).", at: site)
      }
      state = last.after
    }
    if reactor.isStubEnabled {
      fail(
        "The reactor's stub is enabled, so sending \(renderValue(action)) runs none of the "
          + "reactor's code and no mutation can be received. Test the reactor with its stub "
          + "off; test a view against the stub instead.", at: site)
    }
    reactor.action.onNext(action)
  }

  /// Asserts that the next mutation the reactor reduced matches `isMatching`, and the state
  /// change it made.
  ///
  /// With exhaustivity on, `updateExpected` receives the state as asserted so far and must
  /// turn it into exactly the new state; without it, the state must not change. With
  /// exhaustivity off, it receives the actual new state and only what it changes is checked,
  /// and mutations that don't match are skipped.
  ///
  /// - Parameters:
  ///   - isMatching: Whether a mutation is the one expected.
  ///   - timeout: How long to wait for the mutation when it was not reduced yet, in seconds
  ///     (for mutations reduced on other threads).
  ///   - updateExpected: Describes the expected state change.
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
    _ isMatching: (R.Mutation) -> Bool, timeout: TimeInterval = 0,
    assert updateExpected: ((inout R.State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    receive(
      "a mutation matching the predicate", isMatching, timeout: timeout, updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next mutation the reactor reduced equals `expected`, and the state
  /// change it made.
  ///
  /// Compares with `==`; otherwise the same as the blocking `receive` with a predicate.
  @available(
    *, noasync,
    message: "in async code, use 'await store.receive(…)'; a timeout is a Duration (.seconds(1))"
  )
  public func receive(
    _ expected: R.Mutation, timeout: TimeInterval = 0,
    assert updateExpected: ((inout R.State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) where R.Mutation: Equatable {
    receive(
      renderValue(expected), { $0 == expected }, timeout: timeout, updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next mutation the reactor reduced matches `isMatching`, and the state
  /// change it made, waiting for it without blocking the thread.
  ///
  /// The async form, chosen in `async` code: while it waits, the caller's actor is free, so a
  /// `@MainActor` test can wait for mutations that a reactor's `run` task sends from the main
  /// actor.
  ///
  /// - Parameters:
  ///   - isMatching: Whether a mutation is the one expected.
  ///   - timeout: How long to wait for the mutation when it was not reduced yet (real time).
  ///     One second by default.
  ///   - updateExpected: Describes the expected state change.
  ///   - fileID: The file ID of the call site, where this assertion's failures are reported.
  ///     Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  ///   - isolation: The caller's actor. Leave the default.
  public func receive(
    _ isMatching: (R.Mutation) -> Bool, timeout: Duration = .seconds(1),
    assert updateExpected: ((inout R.State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await receive(
      "a mutation matching the predicate", isMatching, timeout: timeout, updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next mutation the reactor reduced equals `expected`, and the state
  /// change it made, waiting for it without blocking the thread.
  ///
  /// Compares with `==`; otherwise the same as the async `receive` with a predicate.
  public func receive(
    _ expected: R.Mutation, timeout: Duration = .seconds(1),
    assert updateExpected: ((inout R.State) -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async where R.Mutation: Equatable {
    await receive(
      renderValue(expected), { $0 == expected }, timeout: timeout, updateExpected,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Drops every mutation not asserted yet, accepting the state they led to.
  public func skipReceivedMutations() {
    if let last = received.takeAll().last { state = last.after }
  }

  /// Ends every mutation stream still running (it completes at once), so the test can end
  /// without waiting for it; nothing it emits afterwards is reduced. Streams started later
  /// run as usual.
  public func cancelInFlightMutations() {
    work.cancelAll()
  }

  /// Ends the test: with exhaustivity on, mutation streams still running and mutations not
  /// asserted fail it.
  ///
  /// First waits up to `timeout` for running streams to end, running the current run loop
  /// meanwhile (so work delivered on the main queue can end). A stream still running then
  /// fails the test, naming its action: receive its mutations, advance the `TestScheduler` or
  /// `TestClock` it waits on until it completes, or end it with ``cancelInFlightMutations()``.
  /// Called when the test store is freed, if not called before, without waiting.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for running streams, in seconds. One second by default.
  ///   - fileID: The file ID of the call site, where failures are reported. Leave the
  ///     default.
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
    if exhaustivity == .on {
      waitBlocking(until: deadline(afterSeconds: timeout)) { work.running.isEmpty }
    }
    end(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Ends the test, waiting for running mutation streams without blocking the caller's
  /// actor: the async form of ``finish(timeout:fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for running streams (real time). One second by default.
  ///   - fileID: The file ID of the call site, where failures are reported. Leave the
  ///     default.
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
    if exhaustivity == .on {
      let deadline = ContinuousClock.now.advanced(by: max(timeout, .zero))
      await waitSuspending(until: deadline) { work.running.isEmpty }
    }
    end(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  // MARK: - Private

  /// Fails for running streams and unasserted mutations (with exhaustivity on), and stops
  /// observing the reactor.
  private func end(at site: CallSite) {
    if exhaustivity == .on {
      let running = work.running
      if !running.isEmpty {
        let one = running.count == 1
        fail(
          "The mutations of \(counted(running.count, "action")) were "
            + "still running when the test ended (\(running.joined(separator: ", "))). "
            + "Receive \(one ? "its" : "their") mutations, advance the test scheduler or "
            + "clock \(one ? "it waits" : "they wait") on until \(one ? "it completes" : "they complete"), "
            + "or end \(one ? "it" : "them") with cancelInFlightMutations().", at: site)
      }
    }
    hook?.dispose()
    hook = nil
    let pending = received.takeAll()
    guard let last = pending.last else { return }
    if exhaustivity == .on {
      let one = pending.count == 1
      fail(
        "\(counted(pending.count, "received mutation")) \(one ? "was" : "were") not asserted "
          + "before the test ended: \(list(pending)). Assert \(one ? "it" : "them") with "
          + "receive, or skip \(one ? "it" : "them") with skipReceivedMutations().", at: site)
    }
    state = last.after
  }

  private func receive(
    _ description: String, _ isMatching: (R.Mutation) -> Bool, timeout: TimeInterval,
    _ updateExpected: ((inout R.State) -> Void)?, at site: CallSite
  ) {
    if let failure = received.receive(
      description, timeout: timeout, noun: .mutation, hint: runningHint,
      { assertReceived($0, description, isMatching, updateExpected, at: site) })
    {
      fail(failure, at: site)
    }
  }

  private func receive(
    _ description: String, _ isMatching: (R.Mutation) -> Bool, timeout: Duration,
    _ updateExpected: ((inout R.State) -> Void)?, at site: CallSite,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    if let failure = await received.receive(
      description, timeout: timeout, noun: .mutation, hint: runningHint,
      { assertReceived($0, description, isMatching, updateExpected, at: site) })
    {
      fail(failure, at: site)
    }
  }

  /// Asserts a reduced mutation against the expected one: `true` when the assertion is over
  /// (matched, or failed), `false` when the mutation was skipped (exhaustivity off).
  private func assertReceived(
    _ reduced: ReducedMutation, _ description: String, _ isMatching: (R.Mutation) -> Bool,
    _ updateExpected: ((inout R.State) -> Void)?, at site: CallSite
  ) -> Bool {
    guard isMatching(reduced.mutation) else {
      state = reduced.after
      guard exhaustivity == .on else { return false }
      fail(
        "Expected to receive \(description), but received \(renderValue(reduced.mutation)).",
        at: site)
      return true
    }
    defer { state = reduced.after }
    if let message = stateAssertionFailure(
      asserted: state, actual: reduced.after, updateExpected, exhaustivity: exhaustivity,
      after: "receiving \(renderValue(reduced.mutation))")
    {
      fail(message, at: site)
    }
    return true
  }

  /// Names the actions whose mutation streams are running, for a receive that timed out.
  private func runningHint() -> String {
    let running = work.running
    guard !running.isEmpty else { return " (no action's mutations are running)" }
    return " (the mutations of \(running.joined(separator: ", ")) are still running: advance "
      + "the test scheduler or clock they wait on, or give receive a timeout)"
  }

  private func fail(_ message: String, at site: CallSite) {
    reportFailure(site.failure(message))
  }

  private func list(_ mutations: [ReducedMutation]) -> String {
    mutations.map { renderValue($0.mutation) }.joined(separator: ", ")
  }
}

/// The mutation streams of a reactor under test that are running, by the action that
/// started them, and the signal that cancels them all.
private final class MutationWork: @unchecked Sendable {
  // Safety: `streams` and `nextID` are only touched with `lock` locked.
  private let lock = NSLock()
  private var streams: [(id: UInt64, action: String)] = []
  private var nextID: UInt64 = 0
  private let cancel = PublishSubject<Void>()

  /// Emits when ``cancelAll()`` is called.
  var cancellation: Observable<Void> { cancel.asObservable() }

  /// The actions whose streams are running, oldest first.
  var running: [String] {
    lock.lock()
    defer { lock.unlock() }
    return streams.map(\.action)
  }

  func begin(_ action: String) -> UInt64 {
    lock.lock()
    defer { lock.unlock() }
    nextID &+= 1
    streams.append((nextID, action))
    return nextID
  }

  func end(_ id: UInt64) {
    lock.lock()
    defer { lock.unlock() }
    streams.removeAll { $0.id == id }
  }

  func cancelAll() {
    cancel.onNext(())
  }
}
