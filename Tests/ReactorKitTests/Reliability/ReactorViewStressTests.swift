import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Views on several threads binding, rebinding and dropping shared reactors while other threads
/// send those reactors actions. Each view is used by one thread (a view's `reactor` is not
/// meant to be assigned from two threads at once); the reactors and the view tables are shared.
final class ReactorViewStressTests: ResourceTestCase {
  func test_reactorViews_rebindingOnSeveralThreadsWhileActionsFlow_endOldBindingsAndLoseNoAction() {
    // given
    var reactors: [TallyReactor]? = (0..<3).map { _ in TallyReactor() }
    let weakReactors = reactors!.map { WeakBox($0) }
    let shared = UncheckedReactors(reactors!)
    let actionsPerThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 400 : 2_000)
    let rebindsPerThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 100 : 400)
    let probes = StoreLockedBox<[BindingProbe]>([])
    // when: three threads send actions while four threads rebind, unbind and drop views
    runConcurrently(threads: 7) { thread in
      var generator = SeededRandomNumberGenerator(seed: StressConfiguration.seed &+ UInt64(thread))
      if thread < 3 {
        for index in 0..<actionsPerThread {
          shared.reactors[(thread + index) % 3].action.onNext(1)
        }
        return
      }
      var view: TallyView? = TallyView(probes: probes)
      for _ in 0..<rebindsPerThread {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<6:
          view?.reactor = shared.reactors[Int.random(in: 0..<3, using: &generator)]
        case 6:
          view?.reactor = nil
        case 7, 8:
          // Drop the view with its bindings and start over with a new one.
          view = TallyView(probes: probes)
        default:
          // A bag of its own, released while actions flow.
          var bag: DisposeBag? = DisposeBag()
          shared.reactors[Int.random(in: 0..<3, using: &generator)].state
            .subscribe(onNext: { _ in })
            .disposed(by: bag!)
          sched_yield()
          bag = nil
        }
      }
      view = nil
    }
    // then: each reactor reduced every action sent to it
    let expected = (0..<3).map { reactor in
      (0..<3).reduce(0) { total, thread in
        total + (0..<actionsPerThread).filter { (thread + $0) % 3 == reactor }.count
      }
    }
    XCTAssertEqual(shared.reactors.map(\.currentState), expected)
    // Each binding rendered states in order and stopped when its bag was replaced: at most the
    // delivery already under way on an action thread finished afterwards.
    let all = probes.current
    XCTAssertGreaterThan(all.count, 0)
    XCTAssertEqual(all.filter { !$0.isInOrder }.count, 0, "a binding saw states out of order")
    XCTAssertEqual(all.filter { $0.lateRenders > 1 }.count, 0, "a binding outlived its bag")
    XCTAssertEqual(all.filter { !$0.hasEnded }.count, 0, "a binding was never disposed")
    // Releasing the reactors frees them: the views kept none.
    reactors = nil
    shared.release()
    XCTAssertTrue(
      waitUntil { weakReactors.allSatisfy { $0.value == nil } }, "a view kept a reactor alive")
  }
}

// MARK: - Fakes

private final class TallyReactor: Reactor, @unchecked Sendable {
  // Safety: the reactor's streams synchronise themselves; `initialState` is immutable.
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

private final class TallyView: ReactorView {
  var disposeBag = DisposeBag()
  let probes: StoreLockedBox<[BindingProbe]>

  init(probes: StoreLockedBox<[BindingProbe]>) {
    self.probes = probes
  }

  func bind(reactor: TallyReactor) {
    let probe = BindingProbe()
    probes.withLock { $0.append(probe) }
    reactor.state
      .subscribe(onNext: { state in probe.render(state) })
      .disposed(by: disposeBag)
    // Disposed after the subscription above, when the bag goes away.
    Disposables.create { probe.end() }.disposed(by: disposeBag)
  }
}

/// What one binding rendered, and whether it rendered after its bag was released.
private final class BindingProbe: Sendable {
  private let last = AtomicBox<Int>(-1)
  private let outOfOrder = AtomicBox<Bool>(false)
  private let ended = AtomicBox<Bool>(false)
  private let late = AtomicBox<Int>(0)

  var isInOrder: Bool { !outOfOrder.load(ordering: .acquiring) }
  var hasEnded: Bool { ended.load(ordering: .acquiring) }
  var lateRenders: Int { late.load(ordering: .acquiring) }

  /// Called serially by the reactor's state stream.
  func render(_ state: Int) {
    if ended.load(ordering: .acquiring) { late.wrappingAdd(1, ordering: .relaxed) }
    if state < last.load(ordering: .relaxed) { outOfOrder.store(true, ordering: .releasing) }
    last.store(state, ordering: .relaxed)
  }

  func end() {
    ended.store(true, ordering: .releasing)
  }
}

/// The shared reactors, handed to the test threads.
private final class UncheckedReactors: @unchecked Sendable {
  // Safety: `reactors` is written once before the threads start and cleared after they end.
  private(set) var reactors: [TallyReactor]

  init(_ reactors: [TallyReactor]) { self.reactors = reactors }

  func release() { reactors = [] }
}

private final class WeakBox<Object: AnyObject> {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}
