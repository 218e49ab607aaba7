import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class ReactorRunTests: ResourceTestCase {
  func test_run_emitsSentMutationsInOrderThenCompletes() {
    // given
    let reactor = TaskReactor()
    let events = Locked<[Event<Int>]>([])
    let done = expectation(description: "completed")
    // when
    let subscription = reactor.run(scheduler: CurrentThreadScheduler.instance) { send in
      for value in 1...3 {
        await Task.yield()
        send(value)
      }
    }.subscribe { event in
      events.withLock { $0.append(event) }
      if event.isCompleted { done.fulfill() }
    }
    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(events.current, [.next(1), .next(2), .next(3), .completed])
    subscription.dispose()
  }

  func test_run_deliversOnTheMainSchedulerByDefault() {
    // given
    let reactor = TaskReactor()
    let onMain = Locked<[Bool]>([])
    let done = expectation(description: "completed")
    // when
    let subscription = reactor.run { send in
      send(1)
      send(2)
    }.subscribe(
      onNext: { _ in onMain.withLock { $0.append(MainScheduler.isMainThread) } },
      onCompleted: { done.fulfill() })
    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(onMain.current, [true, true])
    subscription.dispose()
  }

  func test_run_mutationsReachTheReactorState() {
    // given
    let reactor = TaskReactor()
    let done = expectation(description: "state reached 6")
    let subscription = reactor.state.subscribe(onNext: { state in
      if state == 6 { done.fulfill() }
    })
    // when
    reactor.action.onNext(.count(to: 3))
    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(reactor.currentState, 6)
    subscription.dispose()
  }

  func test_run_disposingCancelsTheTask() {
    // given
    let reactor = TaskReactor()
    let cancelled = expectation(description: "task cancelled")
    let started = expectation(description: "task started")
    let subscription = reactor.run(scheduler: CurrentThreadScheduler.instance) { _ in
      await withTaskCancellationHandler {
        started.fulfill()
        await SuspendForever.wait()
      } onCancel: {
        cancelled.fulfill()
      }
    }.subscribe()
    wait(for: [started], timeout: 5)
    // when
    subscription.dispose()
    // then
    wait(for: [cancelled], timeout: 5)
  }

  func test_run_mutationsSentAfterCancellationAreDropped() {
    // given
    let reactor = TaskReactor()
    let received = Locked<[Int]>([])
    let cancelled = expectation(description: "cancelled")
    let finished = expectation(description: "operation finished")
    let gate = AsyncGate()
    let subscription = reactor.run(scheduler: CurrentThreadScheduler.instance) { send in
      send(1)
      await gate.wait()
      send(2)
      finished.fulfill()
    }.subscribe(onNext: { value in received.withLock { $0.append(value) } })
    // when
    let deadline = Date().addingTimeInterval(5)
    while received.current.isEmpty && Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.001))
    }
    subscription.dispose()
    cancelled.fulfill()
    gate.open()
    // then
    wait(for: [cancelled, finished], timeout: 5)
    XCTAssertEqual(received.current, [1])
  }

  func test_run_releasingTheReactorCancelsItsRunningTask() {
    // given
    let cancelled = expectation(description: "task cancelled")
    let started = expectation(description: "task started")
    var reactor: TaskReactor? = TaskReactor()
    reactor?.onStart = { started.fulfill() }
    reactor?.onCancel = { cancelled.fulfill() }
    reactor?.action.onNext(.waitForever)
    wait(for: [started], timeout: 5)
    // when
    reactor = nil
    // then
    wait(for: [cancelled], timeout: 5)
  }
}

// MARK: - Fakes

private final class TaskReactor: Reactor, @unchecked Sendable {
  enum Action {
    case count(to: Int)
    case waitForever
  }

  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  var onStart: @Sendable () -> Void = {}
  var onCancel: @Sendable () -> Void = {}

  func mutate(action: Action) -> Observable<Int> {
    switch action {
    case .count(let limit):
      return run { send in
        for value in 1...limit { send(value) }
      }
    case .waitForever:
      let onStart = self.onStart
      let onCancel = self.onCancel
      return run { _ in
        await withTaskCancellationHandler {
          onStart()
          await SuspendForever.wait()
        } onCancel: {
          onCancel()
        }
      }
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Suspends until the surrounding task is cancelled.
private enum SuspendForever {
  static func wait() async {
    while !Task.isCancelled {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }
}

/// A one-shot gate that tasks can wait on.
private final class AsyncGate: @unchecked Sendable {
  // Safety: guarded by `lock`.
  private let lock = NSLock()
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    await withCheckedContinuation { continuation in
      lock.lock()
      if isOpen {
        lock.unlock()
        continuation.resume()
      } else {
        waiters.append(continuation)
        lock.unlock()
      }
    }
  }

  func open() {
    lock.lock()
    isOpen = true
    let waiters = self.waiters
    self.waiters = []
    lock.unlock()
    for waiter in waiters { waiter.resume() }
  }
}
