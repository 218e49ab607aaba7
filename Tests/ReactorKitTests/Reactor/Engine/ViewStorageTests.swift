import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// What the engine keeps per reactor view: the reactor, whether it is bound, and that it goes
/// away with the view.
///
/// Engine: ViewStorage.swift.
final class ViewStorageTests: ResourceTestCase {
  private final class FakeView {}
  private final class FakeReactor {}

  func testStorageIsMadeOnFirstUseAndIsTheSameAfterwards() {
    let view = FakeView()
    XCTAssertNil(ViewStorage.existing(for: view))

    let storage = ViewStorage.of(view)

    XCTAssertTrue(ViewStorage.of(view) === storage)
    XCTAssertTrue(ViewStorage.existing(for: view) === storage)
    XCTAssertNil(ViewStorage.existing(for: FakeView()))
  }

  func testReplacingTheReactorHandsBackThePreviousOneAndUnbinds() {
    let storage = ViewStorage.of(FakeView())
    let first = FakeReactor()
    let second = FakeReactor()

    XCTAssertNil(storage.replaceReactor(with: first))
    XCTAssertTrue(storage.reactorToBind() === first)
    XCTAssertNil(storage.reactorToBind(), "a reactor is bound once")

    XCTAssertTrue(storage.replaceReactor(with: second) === first)
    XCTAssertTrue(storage.currentReactor === second)
    XCTAssertTrue(storage.reactorToBind() === second)
  }

  func testNoReactorMeansNothingToBind() {
    let storage = ViewStorage.of(FakeView())
    XCTAssertNil(storage.reactorToBind())
    _ = storage.replaceReactor(with: FakeReactor())
    _ = storage.replaceReactor(with: nil)
    XCTAssertNil(storage.reactorToBind())
  }

  func testTheViewsDisposeBagEndingAfterTheViewReleasesTheStorageAtOnce() {
    weak var weakReactor: FakeReactor?
    weak var weakStorage: ViewStorage?
    var bag: DisposeBag? = DisposeBag()
    do {
      let view = FakeView()
      let storage = ViewStorage.of(view)
      let reactor = FakeReactor()
      weakReactor = reactor
      weakStorage = storage
      _ = storage.replaceReactor(with: reactor)
      storage.releaseWhenDeinitialized(view, with: bag!)
    }
    // The view is gone; its bag ends with it (a view's deinit ends its bag): the sentinel
    // releases the storage now, without waiting for the table's sweep.
    bag = nil
    XCTAssertNil(weakStorage)
    XCTAssertNil(weakReactor)
  }

  func testTheBagEndingWhileTheViewLivesKeepsTheStorage() {
    let view = FakeView()
    var bag: DisposeBag? = DisposeBag()
    let storage = ViewStorage.of(view)
    storage.releaseWhenDeinitialized(view, with: bag!)

    bag = nil

    XCTAssertTrue(ViewStorage.existing(for: view) === storage)
  }
}
