import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class BinderTests: ResourceTestCase {
  func test_binder_appliesElementsToTargetOnTheGivenScheduler() {
    // given
    let target = Target()
    let scheduler = TestScheduler(initialClock: 0)
    let binder = Binder(target, scheduler: scheduler) { target, value in
      target.values.append(value)
    }
    // when
    binder.onNext(1)
    binder.onNext(2)
    let beforeRun = target.values
    scheduler.start()
    // then
    XCTAssertEqual(beforeRun, [])
    XCTAssertEqual(target.values, [1, 2])
  }

  func test_binder_deliversOnMainThreadByDefault() {
    // given
    let target = Target()
    let done = expectation(description: "delivered")
    let binder = Binder(target) { target, value in
      target.values.append(value)
      target.onMain.append(MainScheduler.isMainThread)
      done.fulfill()
    }
    let sendable = UncheckedBinder(binder)
    // when
    DispatchQueue.global().async { sendable.binder.onNext(7) }
    // then
    wait(for: [done], timeout: 5)
    XCTAssertEqual(target.values, [7])
    XCTAssertEqual(target.onMain, [true])
  }

  func test_binder_holdsTargetWeakly() {
    // given
    var target: Target? = Target()
    weak var weakTarget: Target?
    weakTarget = target
    var applied = 0
    let binder = Binder<Int>(target!, scheduler: CurrentThreadScheduler.instance) { _, _ in
      applied += 1
    }
    // when
    target = nil
    binder.onNext(1)
    // then
    XCTAssertNil(weakTarget)
    XCTAssertEqual(applied, 0)
  }

  func test_binder_ignoresCompletion() {
    // given
    let target = Target()
    let binder = Binder(target, scheduler: CurrentThreadScheduler.instance) { target, value in
      target.values.append(value)
    }
    // when
    binder.onCompleted()
    binder.onNext(3)
    // then
    XCTAssertEqual(target.values, [3])
  }

  func test_binder_worksWithBind() {
    // given
    let target = Target()
    let binder = Binder(target, scheduler: CurrentThreadScheduler.instance) { target, value in
      target.values.append(value)
    }
    // when
    let subscription = Observable.of(1, 2, 3).bind(to: binder)
    // then
    XCTAssertEqual(target.values, [1, 2, 3])
    subscription.dispose()
  }
}

// MARK: - Fakes

private final class Target: @unchecked Sendable {
  // Safety: written by the binder's scheduler only, read after the test waits.
  var values: [Int] = []
  var onMain: [Bool] = []
}

/// Lets the test hand the binder to a background queue, as an observable on that queue would.
private struct UncheckedBinder: @unchecked Sendable {
  // Safety: the binder only schedules work on the main scheduler.
  let binder: Binder<Int>
  init(_ binder: Binder<Int>) { self.binder = binder }
}
