import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SingleAssignmentDisposableTests: ResourceTestCase {
  func test_singleAssignmentDisposable_disposesTheAssignedDisposableOnce() {
    // given
    let container = SingleAssignmentDisposable()
    let disposals = AtomicBox<Int>(0)
    container.setDisposable(Disposables.create { disposals.wrappingAdd(1, ordering: .relaxed) })
    // when
    container.dispose()
    container.dispose()
    // then
    XCTAssertEqual(disposals.load(ordering: .relaxed), 1)
    XCTAssertTrue(container.isDisposed)
  }

  func test_singleAssignmentDisposable_disposedBeforeAssignment_disposesTheLateOneAtOnce() {
    // given
    let container = SingleAssignmentDisposable()
    let disposals = AtomicBox<Int>(0)
    container.dispose()
    // when
    container.setDisposable(Disposables.create { disposals.wrappingAdd(1, ordering: .relaxed) })
    // then
    XCTAssertEqual(disposals.load(ordering: .relaxed), 1)
    container.dispose()
    XCTAssertEqual(disposals.load(ordering: .relaxed), 1)
  }

  func test_singleAssignmentDisposable_isNotDisposedUntilDisposed() {
    // given
    let container = SingleAssignmentDisposable()
    let disposals = AtomicBox<Int>(0)
    // when
    container.setDisposable(Disposables.create { disposals.wrappingAdd(1, ordering: .relaxed) })
    // then
    XCTAssertFalse(container.isDisposed)
    XCTAssertEqual(disposals.load(ordering: .relaxed), 0)
    container.dispose()
  }

  func test_singleAssignmentDisposable_releasesTheAssignedDisposableWhenDisposed() {
    // given
    final class Token: Disposable {
      func dispose() {}
    }
    let container = SingleAssignmentDisposable()
    weak var released: Token?
    do {
      let token = Token()
      released = token
      container.setDisposable(token)
    }
    XCTAssertNotNil(released)
    // when
    container.dispose()
    // then
    XCTAssertNil(released)
  }

  func test_singleAssignmentDisposable_racingAssignmentAndDisposal_disposesExactlyOnce() {
    for _ in 0..<StressConfiguration.iterations(2_000) {
      // given
      let container = SingleAssignmentDisposable()
      let disposals = AtomicBox<Int>(0)
      // when: one thread assigns while another disposes
      runConcurrently(threads: 2) { thread in
        if thread == 0 {
          container.setDisposable(
            Disposables.create { disposals.wrappingAdd(1, ordering: .relaxed) })
        } else {
          container.dispose()
        }
      }
      // then
      XCTAssertEqual(disposals.load(ordering: .relaxed), 1)
      XCTAssertTrue(container.isDisposed)
    }
  }
}
