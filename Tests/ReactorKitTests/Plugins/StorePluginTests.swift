import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class StorePluginTests: ResourceTestCase {
  // MARK: - Installation

  func test_plugins_wrapTheReducerAndAddMiddlewareInListOrder() {
    // given
    let trace = StoreLockedBox<[String]>([])
    let store = Store(
      reducer: Reducer<Int> { count, _ in
        trace.withLock { $0.append("reducer") }
        count += 1
      }, state: 0,
      middleware: [Middleware<Int>().sideEffect { _, _, _ in trace.withLock { $0.append("own") } }],
      plugins: [TracingPlugin(name: "a", trace: trace), TracingPlugin(name: "b", trace: trace)])
    // when
    store.dispatch(Tick())
    // then
    XCTAssertEqual(store.currentState, 1)
    XCTAssertEqual(
      trace.current,
      [
        "start a", "start b",  // once the store exists
        "own", "middleware a", "middleware b",  // the store's own middleware first
        "enter b", "enter a", "reducer", "leave a", "leave b",  // later wrappers outside
      ])
  }

  func test_startHandler_seesTheStore_andCanDispatch() {
    // given
    let seen = StoreLockedBox<[Int]>([])
    let plugin = ClosurePlugin<Int> { setup in
      setup.onStart { store in
        let subscription = store.state.subscribe(onNext: { state in
          seen.withLock { $0.append(state) }
        })
        store.dispatch(Tick())
        return subscription
      }
    }
    // when
    let store = Store(reducer: Reducer<Int> { count, _ in count += 1 }, state: 0, plugins: [plugin])
    store.dispatch(Tick())
    // then
    XCTAssertEqual(seen.current, [0, 1, 2])
    XCTAssertEqual(store.currentState, 2)
  }

  func test_closeHandlers_runWhenTheStoreIsFreed_afterTheSubscriptionsEnd() {
    // given
    let trace = StoreLockedBox<[String]>([])
    var store: Store<Int>? = Store(
      reducer: Reducer<Int> { count, _ in count += 1 }, state: 0,
      plugins: [TracingPlugin(name: "a", trace: trace), TracingPlugin(name: "b", trace: trace)])
    weak let released = store
    trace.withLock { $0 = [] }
    // when
    store = nil
    // then
    XCTAssertNil(released)
    XCTAssertEqual(trace.current, ["disposed a", "disposed b", "close a", "close b"])
  }

  func test_flushPlugins_flushesEveryPlugin_andThrowsTheFirstError() {
    // given
    let trace = StoreLockedBox<[String]>([])
    let failing = ClosurePlugin<Int> { setup in
      setup.onFlush {
        trace.withLock { $0.append("flush failing") }
        throw FlushFailure()
      }
    }
    let store = Store(
      reducer: Reducer<Int> { _, _ in }, state: 0,
      plugins: [failing, TracingPlugin(name: "a", trace: trace)])
    trace.withLock { $0 = [] }
    // when / then
    XCTAssertThrowsError(try store.flushPlugins()) { error in
      XCTAssertTrue(error is FlushFailure)
    }
    XCTAssertEqual(trace.current, ["flush failing", "flush a"], "a failure stops no other flush")
  }

  func test_flushPlugins_withoutPlugins_doesNothing() throws {
    // given
    let store = Store(reducer: Reducer<Int> { _, _ in }, state: 0)
    // when / then
    try store.flushPlugins()
    XCTAssertNil(store.pluginSlot.object)
  }

  func test_storeWithoutPluginsOrOnlyNilOnes_keepsNoPluginHost() {
    // given
    let absent: Inspectorless? = nil
    // when
    let plain = Store(reducer: Reducer<Int> { _, _ in }, state: 0)
    let withNil = Store(reducer: Reducer<Int> { _, _ in }, state: 0, plugins: [absent])
    let withMiddlewareOnly = Store(
      reducer: Reducer<Int> { _, _ in }, state: 0,
      plugins: [ClosurePlugin<Int> { $0.addMiddleware(Middleware()) }])
    // then: nothing is allocated, and dispatch takes the same path as without plugins
    XCTAssertNil(plain.pluginSlot.object)
    XCTAssertNil(withNil.pluginSlot.object)
    XCTAssertNil(withMiddlewareOnly.pluginSlot.object)
  }

  func test_optionalPlugin_installsItsPluginWhenPresent() {
    // given
    let trace = StoreLockedBox<[String]>([])
    let present: TracingPlugin? = TracingPlugin(name: "a", trace: trace)
    // when
    let store = Store(reducer: Reducer<Int> { _, _ in }, state: 0, plugins: [present])
    store.dispatch(Tick())
    // then
    XCTAssertEqual(trace.current, ["start a", "middleware a", "enter a", "leave a"])
  }

  // MARK: - Installing in a running store

  func test_install_inARunningStore_startsNow_andItsDisposableRemovesIt() {
    // given
    let store = Store(reducer: Reducer<Int> { count, _ in count += 1 }, state: 0)
    let trace = StoreLockedBox<[String]>([])
    let watcher = ClosurePlugin<Int> { setup in
      setup.onStart { store in
        store.state.subscribe(onNext: { state in trace.withLock { $0.append("state \(state)") } })
      }
      setup.onFlush { trace.withLock { $0.append("flush") } }
      setup.onClose { trace.withLock { $0.append("close") } }
    }
    store.dispatch(Tick())
    // when
    let installed = store.install(watcher)
    store.dispatch(Tick())
    try? store.flushPlugins()
    installed.dispose()
    store.dispatch(Tick())
    try? store.flushPlugins()
    // then
    XCTAssertEqual(trace.current, ["state 1", "state 2", "flush", "close"])
  }

  func test_install_removeAndFlush_fromManyThreadsWhileDispatching_loseNothing() {
    // given
    let store = Store(reducer: Reducer<Int> { count, _ in count += 1 }, state: 0)
    let threads = 4
    let rounds = StressConfiguration.iterations(200)
    let seen = AtomicBox<Int>(0)
    let closed = AtomicBox<Int>(0)
    // when: each thread installs a watcher, dispatches, flushes, and removes it
    runConcurrently(threads: threads) { _ in
      for _ in 0..<rounds {
        let watcher = ClosurePlugin<Int> { setup in
          setup.onStart { store in
            store.actions.subscribe(onNext: { _ in seen.add(1, ordering: .relaxed) })
          }
          setup.onFlush {}
          setup.onClose { closed.add(1, ordering: .relaxed) }
        }
        let installed = store.install(watcher)
        store.dispatch(Tick())
        try? store.flushPlugins()
        installed.dispose()
      }
    }
    // then: every watcher saw at least its own action, and each was closed exactly once
    XCTAssertEqual(store.currentState, threads * rounds)
    XCTAssertGreaterThanOrEqual(seen.load(ordering: .relaxed), threads * rounds)
    XCTAssertEqual(closed.load(ordering: .relaxed), threads * rounds)
  }

  // MARK: - Scoping

  func test_scoped_plugin_seesItsPart_inTheReducerTheMiddlewareAndTheContext() {
    // given
    let trace = StoreLockedBox<[String]>([])
    let partPlugin = ClosurePlugin<Int> { setup in
      setup.wrapReducer { reducer in
        Reducer { count, action in
          reducer.reduce(&count, action)
          count *= 10  // the plugin rewrites its part after each reduction
        }
      }
      setup.addMiddleware(
        Middleware<Int>().sideEffect { getState, _, _ in
          trace.withLock { $0.append("middleware sees \(getState())") }
        })
      setup.onStart { store in
        store.state.subscribe(onNext: { part in trace.withLock { $0.append("part \(part)") } })
      }
    }
    let store = Store(
      reducer: Pair.reducer, state: Pair(), plugins: [partPlugin.scoped(to: \.right)])
    // when
    store.dispatch(Tick())
    // then
    XCTAssertEqual(store.currentState, Pair(left: 1, right: 10))
    XCTAssertEqual(trace.current, ["part 0", "middleware sees 0", "part 10"])
  }

  // MARK: - Logging

  func test_loggingPlugin_forStore_logsActionsAndStates_andFlushesWhenTheStoreIsFreed() {
    // given
    let sink = CollectingSink()
    let logger = LoggingPlugin(
      sink: sink.sink, clock: .stepping(from: Date(timeIntervalSince1970: 0), by: .milliseconds(1)))
    var store: Store<DemoState>? = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [logger.forStore(source: "app")])
    // when
    store?.dispatch(DemoAction.add("Milk"))
    store = nil
    // then
    XCTAssertEqual(sink.events.map(\.kind), [.action, .state])
    XCTAssertEqual(sink.events.map(\.source), ["app", "app"])
    XCTAssertEqual(sink.flushes, 1, "freeing the store flushed the sink")
  }

  func test_reactorInstall_ofSeveralPlugins_installsEach_andOneDisposableRemovesThem() {
    // given
    let first = CollectingSink()
    let second = CollectingSink()
    let reactor = CountingReactor()
    let loggers = [LoggingPlugin(sink: first.sink), LoggingPlugin(sink: second.sink)]
    let installed = reactor.install(loggers, source: "counter")
    // when
    reactor.action.onNext(1)
    installed.dispose()
    reactor.action.onNext(1)
    for logger in loggers { logger.flush() }
    // then
    XCTAssertEqual(first.events.map(\.kind), [.action, .mutation, .state])
    XCTAssertEqual(second.events.map(\.source), ["counter", "counter", "counter"])
  }

  // MARK: - Recording

  func test_actionRecorder_forStore_recordsFromCreation_andFlushIsTheOneVerb() throws {
    // given
    let recorder = ActionRecorder(registry: DemoState.registry)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [recorder.forStore()])
    // when
    store.dispatch(DemoAction.add("x"))
    try store.flushPlugins()
    recorder.flush()
    // then
    XCTAssertEqual(recorder.recording.actions.count, 1)
  }
}

// MARK: - Fakes

private struct Tick: Action {}

private struct FlushFailure: Error {}

private struct Pair: Equatable {
  var left = 0
  var right = 0

  static let reducer = Reducer<Pair> { pair, _ in
    pair.left += 1
    pair.right += 1
  }
}

/// A plugin built from a closure.
private struct ClosurePlugin<State>: StorePlugin {
  let body: (inout StorePluginSetup<State>) -> Void

  init(_ body: @escaping (inout StorePluginSetup<State>) -> Void) {
    self.body = body
  }

  func install(in setup: inout StorePluginSetup<State>) {
    body(&setup)
  }
}

/// A plugin that uses every contribution and traces each call.
private struct TracingPlugin: StorePlugin {
  typealias State = Int
  let name: String
  let trace: StoreLockedBox<[String]>

  func install(in setup: inout StorePluginSetup<Int>) {
    let name = self.name
    let trace = self.trace
    setup.wrapReducer { reducer in
      Reducer { count, action in
        trace.withLock { $0.append("enter \(name)") }
        reducer.reduce(&count, action)
        trace.withLock { $0.append("leave \(name)") }
      }
    }
    setup.addMiddleware(
      Middleware<Int>().sideEffect { _, _, _ in trace.withLock { $0.append("middleware \(name)") } }
    )
    setup.onStart { _ in
      trace.withLock { $0.append("start \(name)") }
      return Disposables.create { trace.withLock { $0.append("disposed \(name)") } }
    }
    setup.onFlush { trace.withLock { $0.append("flush \(name)") } }
    setup.onClose { trace.withLock { $0.append("close \(name)") } }
  }
}

/// A plugin type that is never present (for the `nil` case of an optional plugin).
private typealias Inspectorless = TracingPlugin

/// A log sink that keeps its events and counts its flushes.
private final class CollectingSink: @unchecked Sendable {
  // Safety: `collected` and `flushCount` are guarded by `lock`.
  private let lock = NSLock()
  private var collected: [LogEvent] = []
  private var flushCount = 0

  var sink: LogSink {
    let receive: @Sendable (LogEvent) -> Void = { [self] event in
      lock.withLock { collected.append(event) }
    }
    return LogSink(flush: { [self] in lock.withLock { flushCount += 1 } }, receive)
  }

  var events: [LogEvent] { lock.withLock { collected } }
  var flushes: Int { lock.withLock { flushCount } }
}

private final class CountingReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}
