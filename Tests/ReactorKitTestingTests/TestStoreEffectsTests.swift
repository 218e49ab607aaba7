import Dispatch
import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import Testing
import XCTest

/// `TestStore.finish()` and the effects a store's `Middleware.effects` still runs when a test
/// ends: they fail the test (with exhaustivity on) unless they end within the timeout or are
/// cancelled with `cancelInFlightEffects()`.
final class TestStoreEffectsTests: ResourceTestCase {
  func test_finish_failsWhileAnEffectIsStillRunning() {
    // given: `watch` starts an effect that never ends
    let failures = FailureLog()
    let store = watchingStore(failures: failures)
    // when
    let line: UInt = #line + 1
    store.finish(timeout: 0.05)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "1 effect was still running when the test ended (cancellable by \"watch\"). Receive "
          + "what it dispatches, advance the test scheduler or clock it waits on until it ends, "
          + "cancel it (Effect.cancel(id:)), or end it with cancelInFlightEffects()."
      ])
    XCTAssertEqual(failures.failures.first?.line, line)
  }

  func test_finish_namesEveryRunningEffect() {
    // given: one effect with an id, one without
    let failures = FailureLog()
    let effects = onWatch {
      .merge(
        Effect(Observable<WatchAction>.never()).cancellable(id: "watch"),
        Effect(Observable<WatchAction>.never()))
    }
    let store = watchingStore(effects, failures: failures)
    // when
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "2 effects were still running when the test ended (cancellable by \"watch\"; without "
          + "an id). Receive what they dispatch, advance the test scheduler or clock they wait "
          + "on until they end, cancel them (Effect.cancel(id:)), or end them with "
          + "cancelInFlightEffects()."
      ])
  }

  func test_finish_anEffectWithoutAnIdIsNotToldToBeCancelledByID() {
    // given
    let failures = FailureLog()
    let effects = onWatch {
      Effect(Observable<WatchAction>.never())
    }
    let store = watchingStore(effects, failures: failures)
    // when
    store.finish(timeout: 0)
    store.finish(timeout: 0)
    // then: one report, without `Effect.cancel(id:)`
    XCTAssertEqual(
      failures.messages,
      [
        "1 effect was still running when the test ended (without an id). Receive what it "
          + "dispatches, advance the test scheduler or clock it waits on until it ends, or end "
          + "it with cancelInFlightEffects()."
      ])
  }

  func test_finish_effectsOfComposedMiddlewareAreTracked() {
    // given: the effects stage inside `concat` and under an appended step (`filter`)
    let failures = FailureLog()
    let composed = Middleware<Int>().sideEffect { _, _, _ in }.concat(watchEffects)
      .filter { _, _ in true }
    let store = watchingStore(composed, failures: failures)
    // when
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages.first?.contains("(cancellable by \"watch\")") == true,
      "\(failures.messages)")
  }

  func test_finish_waitsForAnEffectThatEndsWithinTheTimeout() {
    // given: an effect that completes 50 ms later, on another thread
    let failures = FailureLog()
    let effects = onWatch {
      Effect(
        Observable<WatchAction>.empty().delay(
          .milliseconds(50), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)))
    }
    let store = watchingStore(effects, failures: failures)
    // when
    store.finish(timeout: 10)
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_finish_anEffectEndingWithAnActionFailsForTheUnassertedAction() {
    // given: the effect dispatches `tick` from another thread, then completes
    let failures = FailureLog()
    let effects = onWatch {
      Effect(
        Observable.just(WatchAction.tick).delay(
          .milliseconds(20), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)))
    }
    let store = watchingStore(effects, failures: failures)
    // when: finish waits for the effect, then finds its action unasserted
    store.finish(timeout: 10)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "1 received action was not asserted before the test ended: WatchAction.tick. "
          + "Assert it with receive, or skip it with skipReceivedActions()."
      ])
  }

  func test_cancelInFlightEffects_endsThemAndFinishPasses() {
    // given
    let failures = FailureLog()
    let disposed = LockedValues<String>()
    let effects = onWatch {
      Effect(Observable<WatchAction>.never().do(onDispose: { disposed.append("watch") }))
    }
    let store = watchingStore(effects, failures: failures)
    // when
    store.cancelInFlightEffects()
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(disposed.all, ["watch"])
    // and the store still runs new effects
    store.send(WatchAction.watch)
    store.cancelInFlightEffects()
    XCTAssertEqual(disposed.all, ["watch", "watch"])
  }

  func test_finish_exhaustivityOffIgnoresRunningEffects() {
    // given
    let failures = FailureLog()
    let store = TestStore(reducer: watchReducer, state: 0, middleware: [watchEffects])
    store.reportFailure = failures.record
    store.exhaustivity = .off
    store.send(WatchAction.watch)
    // when
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_finish_effectsCancelledByAnActionDoNotFail() {
    // given
    let failures = FailureLog()
    let store = watchingStore(failures: failures)
    // when
    store.send(WatchAction.stop)
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_deinit_reportsARunningEffectAtTheInitialiserLocation() {
    // given
    let failures = FailureLog()
    let line: UInt = #line + 2
    do {
      _ = watchingStore(failures: failures)
    }
    // then
    XCTAssertEqual(failures.failures.count, 1)
    XCTAssertEqual(failures.failures.first?.line, line)
    XCTAssertTrue(
      failures.messages.first?.hasPrefix("1 effect was still running when the test ended") == true,
      "\(failures.messages)")
  }

  func test_finish_effectsOfAScopedPluginAreTracked() {
    // given: the effects middleware comes from a plugin scoped to a part of the state
    let failures = FailureLog()
    let plugin = EffectsPlugin().scoped(to: \Pair.count)
    let store = TestStore(reducer: pairReducer, state: Pair(), plugins: [plugin])
    store.reportFailure = failures.record
    store.send(WatchAction.watch)
    // when
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages.first?.contains("(cancellable by \"watch\")") == true,
      "\(failures.messages)")
  }
}

/// The async `finish`, chosen in `async` code: it waits without blocking the caller's actor,
/// where `Effect.run` operations run.
@Suite struct TestStoreAsyncFinishTests {
  @MainActor @Test func asyncFinish_letsAMainActorRunEffectEnd() async {
    // given: a `run` effect (on the main actor) that ends by itself 50 ms later
    let effects = onWatch { .run { _ in try await Task.sleep(for: .milliseconds(50)) } }
    let failures = FailureLog()
    let store = watchingStore(effects, failures: failures)
    // when: waiting suspends, so the effect can run on the main actor
    await store.finish(timeout: .seconds(10))
    // then
    #expect(failures.messages == [])
  }

  @MainActor @Test func asyncFinish_exhaustivityOffNeitherWaitsNorFails() async {
    // given
    let store = TestStore(reducer: watchReducer, state: 0, middleware: [watchEffects])
    let failures = FailureLog()
    store.reportFailure = failures.record
    store.exhaustivity = .off
    store.send(WatchAction.watch)
    // when
    let started = ContinuousClock.now
    await store.finish(timeout: .seconds(30))
    // then
    #expect(failures.messages == [])
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test func asyncFinish_cancelledWhileWaiting_saysSo() async {
    // given
    let failures = FailureLog()
    let store = watchingStore(failures: failures)
    // when: the waiting task is cancelled long before the timeout
    let box = UncheckedSendable(store)
    let task = Task { await box.value.finish(timeout: .seconds(30)) }
    try? await Task.sleep(for: .milliseconds(20))
    task.cancel()
    await task.value
    // then
    #expect(failures.messages.count == 1)
    #expect(
      failures.messages.first?.hasSuffix("The test was cancelled while finish waited.") == true)
  }

  @MainActor @Test func asyncFinish_failsForAnEffectStillRunning() async {
    // given
    let failures = FailureLog()
    let store = watchingStore(failures: failures)
    // when
    await store.finish(timeout: .milliseconds(20))
    // then
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.hasPrefix("1 effect was still running") == true)
  }
}

// MARK: - Fixtures

private enum WatchAction: Action, Equatable {
  case watch
  case stop
  case tick
}

private let watchReducer = Reducer<Int>.on(WatchAction.self) { count, action in
  if action == .tick { count += 1 }
}

/// A middleware whose effect of `watch` is `effect()`; other actions have none.
private func onWatch(_ effect: @escaping @Sendable () -> Effect) -> Middleware<Int> {
  .effects(on: WatchAction.self) { action, _ in action == .watch ? effect() : .none }
}

/// A test store of `watchReducer` with `middleware` that collects its failures in `failures`,
/// after `watch` was sent (started its effect). Failures found when it is freed point at the
/// caller's line.
private func watchingStore(
  _ middleware: Middleware<Int> = watchEffects, failures: FailureLog,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> TestStore<Int> {
  let store = TestStore(
    reducer: watchReducer, state: 0, middleware: [middleware], fileID: fileID,
    filePath: filePath, line: line, column: column)
  store.reportFailure = failures.record
  store.send(WatchAction.watch)
  return store
}

/// `watch` starts an effect that never ends, cancellable by `"watch"`; `stop` cancels it.
private let watchEffects = Middleware<Int>.effects(on: WatchAction.self) { action, _ in
  switch action {
  case .watch: Effect(Observable<WatchAction>.never()).cancellable(id: "watch")
  case .stop: .cancel(id: "watch")
  case .tick: .none
  }
}

private struct Pair: Equatable {
  var count = 0
  var label = ""
}

private let pairReducer = watchReducer.lift(\Pair.count)

/// A plugin whose middleware is `watchEffects`.
private struct EffectsPlugin: StorePlugin {
  func install(in setup: inout StorePluginSetup<Int>) {
    setup.addMiddleware(watchEffects)
  }
}
