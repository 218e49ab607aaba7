import ReactorKitStreams
import XCTest

@testable import ReactorKit

/// `castAction`, the fast `action as? A` of `Reducer.on`: the exact-type copy, the runtime
/// cast for everything else, and the cache of types that never cast.
final class ActionCastTests: XCTestCase {
  private enum Counter: Action, Equatable {
    case add(Int)
  }

  private struct Named: Action, Equatable {
    var name: String
  }

  private protocol Loggable: Action {
    var text: String { get }
  }

  private struct Logged: Loggable {
    var text: String
  }

  private struct Generic<Payload>: Action {
    var payload: Payload
  }

  private final class Tracked: Action {
    static let liveCount = AtomicBox<Int>(0)
    static var live: Int { liveCount.load(ordering: .acquiring) }
    let id: Int
    init(_ id: Int) {
      self.id = id
      Tracked.liveCount.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }
    deinit { Tracked.liveCount.wrappingAdd(-1, ordering: .acquiringAndReleasing) }
  }

  func testTheExactTypeIsCopiedOut() {
    let misses = ActionCastMisses()
    XCTAssertEqual(castAction(Counter.add(3), to: Counter.self, misses: misses), .add(3))
    XCTAssertEqual(
      castAction(Named(name: "a long string that is not inline"), to: Named.self, misses: misses),
      Named(name: "a long string that is not inline"))
  }

  func testAProtocolTargetUsesTheRuntimeCast() {
    let misses = ActionCastMisses()
    let cast = castAction(Logged(text: "hi"), to: (any Loggable).self, misses: misses)
    XCTAssertEqual(cast?.text, "hi")
    XCTAssertNil(castAction(Named(name: "x"), to: (any Loggable).self, misses: misses))
  }

  func testATypeThatDoesNotCastIsRememberedAndStillAnsweredNil() {
    let misses = ActionCastMisses()
    let identity = UInt(bitPattern: ObjectIdentifier(Named.self))
    XCTAssertFalse(misses.contains(identity))

    XCTAssertNil(castAction(Named(name: "x"), to: Counter.self, misses: misses))
    XCTAssertTrue(misses.contains(identity))
    XCTAssertNil(castAction(Named(name: "y"), to: Counter.self, misses: misses))
    XCTAssertEqual(castAction(Counter.add(1), to: Counter.self, misses: misses), .add(1))
  }

  func testGenericSpecialisationsAreDifferentTypes() {
    let misses = ActionCastMisses()
    XCTAssertEqual(
      castAction(Generic(payload: 1), to: Generic<Int>.self, misses: misses)?.payload, 1)
    XCTAssertNil(castAction(Generic(payload: "1"), to: Generic<Int>.self, misses: misses))
    XCTAssertEqual(
      castAction(Generic(payload: "1"), to: Generic<String>.self, misses: misses)?.payload, "1")
  }

  func testAnOverwrittenCacheEntryOnlyCostsACast() {
    let misses = ActionCastMisses()
    // More miss types than slots: entries overwrite each other, answers stay right.
    let identities = (0..<64).map { UInt($0) << ActionCastMisses.alignmentBits }
    for identity in identities { misses.insert(identity) }
    XCTAssertTrue(misses.contains(identities[63]))
    XCTAssertFalse(misses.contains(identities[0]))
    XCTAssertNil(castAction(Named(name: "x"), to: Counter.self, misses: misses))
    XCTAssertEqual(castAction(Counter.add(2), to: Counter.self, misses: misses), .add(2))
  }

  func testAClassActionIsRetainedOnceAndReleased() {
    XCTAssertEqual(Tracked.live, 0)
    do {
      let misses = ActionCastMisses()
      let action = Tracked(7)
      for _ in 0..<100 {
        XCTAssertEqual(castAction(action, to: Tracked.self, misses: misses)?.id, 7)
        XCTAssertNil(castAction(action, to: Counter.self, misses: misses))
      }
    }
    XCTAssertEqual(Tracked.live, 0)
  }
}
