import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// The store's effect runner on its own: what it dispatches, what cancellation by id stops,
/// and that freeing it ends every effect.
final class EffectRunnerTests: XCTestCase {
  private enum Ping: Action, Equatable {
    case ping(Int)
  }

  private func makeRunner() -> (EffectRunner, LockedValues<Ping>) {
    let dispatched = LockedValues<Ping>()
    let runner = EffectRunner { action in
      if let ping = action as? Ping { dispatched.append(ping) }
    }
    return (runner, dispatched)
  }

  private func effect(_ subject: PublishSubject<Ping>) -> ReactorKit.Effect {
    ReactorKit.Effect(subject.asObservable())
  }

  func testDispatchesWhatAnEffectEmitsAndForgetsItWhenItCompletes() {
    let (runner, dispatched) = makeRunner()
    let subject = PublishSubject<Ping>()

    runner.start(effect(subject).operation)
    subject.onNext(.ping(1))
    subject.onNext(.ping(2))
    XCTAssertTrue(subject.hasObservers)
    subject.onCompleted()

    XCTAssertEqual(dispatched.all, [.ping(1), .ping(2)])
    XCTAssertFalse(subject.hasObservers)
  }

  func testCancelByIDStopsOnlyTheEffectsWithThatID() {
    let (runner, dispatched) = makeRunner()
    let first = PublishSubject<Ping>()
    let second = PublishSubject<Ping>()
    runner.start(effect(first).cancellable(id: "a").operation)
    runner.start(effect(second).cancellable(id: "b").operation)

    runner.start(ReactorKit.Effect.cancel(id: "a").operation)
    first.onNext(.ping(1))
    second.onNext(.ping(2))

    XCTAssertFalse(first.hasObservers)
    XCTAssertTrue(second.hasObservers)
    XCTAssertEqual(dispatched.all, [.ping(2)])
  }

  func testCancelInFlightLetsTheLatestEffectWin() {
    let (runner, dispatched) = makeRunner()
    let old = PublishSubject<Ping>()
    let new = PublishSubject<Ping>()
    runner.start(effect(old).cancellable(id: 1, cancelInFlight: true).operation)
    runner.start(effect(new).cancellable(id: 1, cancelInFlight: true).operation)

    old.onNext(.ping(1))
    new.onNext(.ping(2))

    XCTAssertFalse(old.hasObservers)
    XCTAssertEqual(dispatched.all, [.ping(2)])
  }

  func testMergeStartsEveryPartAndAnErrorEndsOnlyItsOwnEffect() {
    let (runner, dispatched) = makeRunner()
    let failing = PublishSubject<Ping>()
    let healthy = PublishSubject<Ping>()
    runner.start(ReactorKit.Effect.merge(effect(failing), effect(healthy)).operation)

    let reported = LockedValues<String>()
    let handler = Hooks.defaultErrorHandler
    Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
    defer { Hooks.defaultErrorHandler = handler }
    failing.onError(TestError(7))
    healthy.onNext(.ping(3))

    XCTAssertFalse(failing.hasObservers)
    XCTAssertEqual(dispatched.all, [.ping(3)])
    XCTAssertEqual(reported.all, ["\(TestError(7))"])
  }

  func testFreeingTheRunnerDisposesEveryRunningEffect() {
    var (runner, dispatched): (EffectRunner?, LockedValues<Ping>) = makeRunner()
    let subject = PublishSubject<Ping>()
    weak let weakRunner = runner
    runner?.start(effect(subject).cancellable(id: "x").operation)
    XCTAssertTrue(subject.hasObservers)

    runner = nil
    XCTAssertNil(weakRunner, "a running effect must not keep its runner alive")
    subject.onNext(.ping(9))

    XCTAssertFalse(subject.hasObservers)
    XCTAssertEqual(dispatched.all, [])
  }
}
