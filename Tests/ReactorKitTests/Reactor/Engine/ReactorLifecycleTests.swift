import XCTest

@testable import ReactorKit

/// The reactor's lifecycle on its own: no threads, no reactor; each test drives the closed
/// lifecycle as the engine would and checks what it allows.
///
/// Engine: ReactorLifecycle.swift.
final class ReactorLifecycleTests: XCTestCase {
  func test_lifecycle_startsUnwiredWithNothingEnded() {
    // given
    let lifecycle = ReactorLifecycle()
    // then
    XCTAssertEqual(lifecycle.phase, .unwired)
    XCTAssertTrue(lifecycle.isUnwired)
    XCTAssertFalse(lifecycle.isWired)
    XCTAssertFalse(lifecycle.isDisposed)
    XCTAssertEqual(lifecycle.ends, [])
  }

  func test_lifecycle_wiredThenDisposed() {
    // given
    var lifecycle = ReactorLifecycle()
    // when
    let wired = lifecycle.wire()
    // then
    XCTAssertTrue(wired)
    XCTAssertTrue(lifecycle.isWired)
    XCTAssertFalse(lifecycle.isUnwired)
    // when
    let disposed = lifecycle.dispose()
    let disposedAgain = lifecycle.dispose()
    // then: disposal happens once and is terminal
    XCTAssertTrue(disposed)
    XCTAssertFalse(disposedAgain)
    XCTAssertTrue(lifecycle.isDisposed)
    XCTAssertFalse(lifecycle.isWired)
  }

  func test_lifecycle_disposedWhileWiring_staysDisposed() {
    // given: the reactor is freed while its transforms are being wired
    var lifecycle = ReactorLifecycle()
    XCTAssertTrue(lifecycle.dispose())
    // when: the wiring finishes
    let wired = lifecycle.wire()
    // then: the core does not come back to life
    XCTAssertFalse(wired)
    XCTAssertTrue(lifecycle.isDisposed)
    XCTAssertFalse(lifecycle.isWired)
    XCTAssertFalse(lifecycle.isUnwired)
  }

  func test_lifecycle_eachStreamEndsOnce() {
    // given
    var lifecycle = ReactorLifecycle()
    _ = lifecycle.wire()
    // when
    let actions = lifecycle.end(.actions)
    let actionsAgain = lifecycle.end(.actions)
    let mutations = lifecycle.end(.mutations)
    // then
    XCTAssertTrue(actions)
    XCTAssertFalse(actionsAgain)
    XCTAssertTrue(mutations)
    XCTAssertTrue(lifecycle.hasEnded(.actions))
    XCTAssertTrue(lifecycle.hasEnded(.mutations))
    XCTAssertFalse(lifecycle.hasEnded(.output))
    XCTAssertTrue(lifecycle.isWired, "ending streams does not leave the wired phase")
  }

  func test_lifecycle_endsAreKeptWhenDisposed() {
    // given: the state stream completed, then the reactor went away
    var lifecycle = ReactorLifecycle()
    _ = lifecycle.wire()
    _ = lifecycle.end(.output)
    // when
    _ = lifecycle.dispose()
    // then: a late subscriber still learns that the stream had completed
    XCTAssertTrue(lifecycle.hasEnded(.output))
    XCTAssertFalse(lifecycle.end(.output))
  }
}
