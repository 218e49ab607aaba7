import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Engine: ReactorCore+Hooks.swift (hooks around mutate and reduce).
final class ReactorHookTests: ResourceTestCase {
  func test_hook_seesActionsMutationsAndStates() {
    // given
    let reactor = HookedReactor()
    var seen: [String] = []
    reactor.addHook(
      ReactorHook(
        mutate: { action, next in
          seen.append("action \(action)")
          return next(action)
        },
        reduce: { state, mutation, next in
          seen.append("mutation \(mutation)")
          let newState = next(state, mutation)
          seen.append("state \(newState)")
          return newState
        }))
    // when
    reactor.action.onNext(3)
    // then
    XCTAssertEqual(
      seen, ["action 3", "mutation 1", "state 1", "mutation 2", "state 3", "mutation 3", "state 6"])
    XCTAssertEqual(reactor.currentState, 6)
  }

  func test_hook_seesTransformedActions_andMutationsFromTransformMutation() {
    // given
    let source = PublishSubject<Int>()
    let reactor = HookedReactor(extraMutations: source, doublesActions: true)
    var actions: [Int] = []
    var mutations: [Int] = []
    reactor.addHook(
      ReactorHook(
        mutate: { action, next in
          actions.append(action)
          return next(action)
        },
        reduce: { state, mutation, next in
          mutations.append(mutation)
          return next(state, mutation)
        }))
    _ = reactor.state
    // when
    reactor.action.onNext(1)
    source.onNext(100)
    // then
    XCTAssertEqual(actions, [2])
    XCTAssertEqual(mutations, [1, 2, 100])
    XCTAssertEqual(reactor.currentState, 103)
  }

  func test_hooks_nestInInstallationOrder_andCanChangeResults() {
    // given
    let reactor = HookedReactor()
    var order: [String] = []
    for name in ["outer", "inner"] {
      reactor.addHook(
        ReactorHook(reduce: { state, mutation, next in
          order.append("\(name) in")
          let result = next(state, mutation)
          order.append("\(name) out")
          return name == "outer" ? result * 10 : result
        }))
    }
    // when
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(order, ["outer in", "inner in", "inner out", "outer out"])
    XCTAssertEqual(reactor.currentState, 10)
  }

  func test_disposingAHook_removesIt_fromTheNextItem() {
    // given
    let reactor = HookedReactor()
    var count = 0
    let hook = reactor.addHook(
      ReactorHook(reduce: { state, mutation, next in
        count += 1
        return next(state, mutation)
      }))
    reactor.action.onNext(1)
    // when
    hook.dispose()
    reactor.action.onNext(2)
    // then
    XCTAssertEqual(count, 1)
    XCTAssertEqual(reactor.currentState, 4)
  }

  func test_hookInstalledWhileProcessing_appliesAfterTheCurrentItem() {
    // given
    let reactor = HookedReactor()
    var hooked: [Int] = []
    var installed = false
    let subscription = reactor.state.subscribe(onNext: { _ in
      guard !installed else { return }
      installed = true
      reactor.addHook(
        ReactorHook(reduce: { state, mutation, next in
          hooked.append(mutation)
          return next(state, mutation)
        }))
    })
    // when
    reactor.action.onNext(2)
    // then
    XCTAssertEqual(hooked, [1, 2])
    XCTAssertEqual(reactor.currentState, 3)
    subscription.dispose()
  }

  func test_hook_doesNotKeepTheReactorAlive() {
    // given
    weak var weakReactor: HookedReactor?
    let hook: Disposable
    do {
      let reactor = HookedReactor()
      weakReactor = reactor
      hook = reactor.addHook(ReactorHook(mutate: { action, next in next(action) }))
      reactor.action.onNext(1)
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    hook.dispose()
  }

  func test_hook_isReleased_whenRemoved_andWithItsReactor() {
    // given
    weak var removedToken: HookToken?
    weak var keptToken: HookToken?
    weak var weakReactor: HookedReactor?
    do {
      let reactor = HookedReactor()
      weakReactor = reactor
      let hook = reactor.addHook(tokenHook { removedToken = $0 })
      reactor.addHook(tokenHook { keptToken = $0 })
      reactor.action.onNext(1)
      // when
      hook.dispose()
      // then
      XCTAssertNil(removedToken)
      XCTAssertNotNil(keptToken)
      reactor.action.onNext(1)
      XCTAssertEqual(reactor.currentState, 2)
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertNil(keptToken)
  }

  func test_hook_doesNotRunWithTheStubEnabled() {
    // given
    let reactor = HookedReactor()
    reactor.isStubEnabled = true
    var count = 0
    reactor.addHook(
      ReactorHook(mutate: { action, next in
        count += 1
        return next(action)
      }))
    // when
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(count, 0)
    XCTAssertEqual(reactor.stub.actions, [1])
  }

  func test_hooksAddedAndRemovedFromManyThreads_neverDisturbProcessing() {
    // given
    let reactor = HookedReactor()
    _ = reactor.state
    let iterations = StressConfiguration.iterations(200)
    let boxed = UncheckedBox(reactor)
    // when
    // Started together behind a spin barrier; the yields let the other threads in between.
    runConcurrently(threads: 4) { thread in
      for _ in 0..<iterations {
        if thread % 2 == 0 {
          boxed.value.action.onNext(1)
        } else {
          let hook = boxed.value.addHook(
            ReactorHook(reduce: { state, mutation, next in next(state, mutation) }))
          sched_yield()
          hook.dispose()
        }
        sched_yield()
      }
    }
    // then
    XCTAssertEqual(reactor.currentState, 2 * iterations)
  }
}

/// Turns action `n` into mutations 1...n and sums them.
private final class HookedReactor: Reactor {
  typealias Action = Int
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let extraMutations: Observable<Int>
  private let doublesActions: Bool

  init(extraMutations: Observable<Int> = .never(), doublesActions: Bool = false) {
    self.extraMutations = extraMutations
    self.doublesActions = doublesActions
  }

  func transform(action: Observable<Int>) -> Observable<Int> {
    doublesActions ? action.map { $0 * 2 } : action
  }

  func mutate(action: Int) -> Observable<Int> {
    .from(Array(1...max(1, action)))
  }

  func transform(mutation: Observable<Int>) -> Observable<Int> {
    .merge(mutation, extraMutations)
  }

  func reduce(state: Int, mutation: Int) -> Int {
    state + mutation
  }
}

/// An object a hook keeps alive, to observe when the hook is released.
private final class HookToken {}

/// A hook that keeps a new ``HookToken`` alive; `track` receives the token.
private func tokenHook(_ track: (HookToken) -> Void) -> ReactorHook<Int, Int, Int> {
  let token = HookToken()
  track(token)
  return ReactorHook(reduce: { state, mutation, next in
    withExtendedLifetime(token) { next(state, mutation) }
  })
}
