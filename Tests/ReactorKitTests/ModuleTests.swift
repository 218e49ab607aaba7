import ReactorKit
import ReactorKitTesting
import XCTest

final class ModuleTests: ResourceTestCase {
  func test_reactorKit_reexportsStreams() {
    // given
    var received: [Int] = []
    // when
    let subscription = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe(onNext: {
      received.append($0)
    })
    subscription.dispose()
    // then
    XCTAssertEqual(received, [2, 4, 6])
  }
}
