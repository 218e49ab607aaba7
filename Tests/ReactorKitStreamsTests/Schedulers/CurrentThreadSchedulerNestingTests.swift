import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class CurrentThreadSchedulerNestingTests: ResourceTestCase {
  func test_of_trampolinesNestedSequences() {
    var received: [Int] = []
    let outer = Observable.of(1, 2)
    let subscription = outer.subscribe(onNext: { value in
      _ = Observable.of(value * 10, value * 100).subscribe(onNext: { received.append($0) })
    })
    subscription.dispose()
    XCTAssertEqual(received, [10, 100, 20, 200])
  }
}
