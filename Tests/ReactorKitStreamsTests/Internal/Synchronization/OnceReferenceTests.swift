import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKitStreams

final class OnceReferenceTests: XCTestCase {
  func test_onceReference_makesTheObjectOnce() {
    // given
    let word = AtomicBox<UInt>(0)
    let reference = OnceReference<Token>(word.atomic)
    var made = 0
    // when
    let first = reference.getOrMake {
      made += 1
      return Token()
    }
    let second = reference.getOrMake {
      made += 1
      return Token()
    }
    // then
    XCTAssertTrue(first === second)
    XCTAssertTrue(reference.object === first)
    XCTAssertEqual(made, 1)
    XCTAssertTrue(reference.take() === first)
    XCTAssertNil(reference.object)
    XCTAssertNil(reference.take())
  }

  func test_onceReference_releasesTheObjectWhenTaken() {
    // given: a reference set at once, as an entry retains its core
    weak var released: Token?
    let word: AtomicBox<UInt>
    do {
      let token = Token()
      released = token
      word = AtomicBox(OnceReference.retaining(token))
    }
    let reference = OnceReference<Token>(word.atomic)
    XCTAssertNotNil(released)
    // when
    _ = reference.take()
    // then
    XCTAssertNil(released)
    XCTAssertEqual(word.load(ordering: .relaxed), 0)
  }

  func test_onceReference_releaseUnsharedReleasesOnce() {
    // given
    weak var released: Token?
    let word: AtomicBox<UInt>
    do {
      let token = Token()
      released = token
      word = AtomicBox(OnceReference.retaining(token))
    }
    // when
    OnceReference<Token>(word.atomic).releaseUnshared()
    // then
    XCTAssertNil(released)
    word.store(0, ordering: .relaxed)
  }

  func test_onceReference_racingMakersPublishOneObjectAndReleaseTheOthers() {
    for round in 0..<200 {
      // given
      let word = AtomicBox<UInt>(0)
      let reference = OnceReference<Token>(word.atomic)
      let results = LockedValues<ObjectIdentifier>()
      let before = Token.live.load(ordering: .acquiring)
      // when
      runConcurrently(threads: 4) { _ in
        let object = reference.getOrMake { Token() }
        results.append(ObjectIdentifier(object))
      }
      // then: everyone got the same object, and only it is alive
      XCTAssertEqual(Set(results.all).count, 1, "round \(round)")
      XCTAssertEqual(Token.live.load(ordering: .acquiring), before + 1, "round \(round)")
      _ = reference.take()
      XCTAssertEqual(Token.live.load(ordering: .acquiring), before, "round \(round)")
    }
  }

  func test_onceReference_racingTakersGetItOnce() {
    for round in 0..<200 {
      // given
      let word = AtomicBox<UInt>(OnceReference.retaining(Token()))
      let reference = OnceReference<Token>(word.atomic)
      let takers = AtomicBox<Int>(0)
      // when
      runConcurrently(threads: 4) { _ in
        if reference.take() != nil { takers.wrappingAdd(1, ordering: .relaxed) }
      }
      // then
      XCTAssertEqual(takers.load(ordering: .relaxed), 1, "round \(round)")
    }
  }
}

private final class Token: Sendable {
  static let live = AtomicBox<Int>(0)
  init() { Token.live.wrappingAdd(1, ordering: .relaxed) }
  deinit { Token.live.wrappingSubtract(1, ordering: .relaxed) }
}
