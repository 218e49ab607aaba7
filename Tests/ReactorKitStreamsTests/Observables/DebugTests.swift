import ReactorKitTesting
import XCTest

@testable import ReactorKitStreams

final class DebugTests: ResourceTestCase {
  func test_debug_logsSubscriptionEventsAndDisposal() {
    // given
    let lines = LockedValues<String>()
    // when
    let subscription = Observable.of(1, 2)
      .debug(identifier: "numbers", trimOutput: false) { lines.append($0) }
      .subscribe()
    subscription.dispose()
    // then
    let contents = lines.all.map {
      $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
    }
    XCTAssertEqual(
      contents,
      [
        "numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event next(2)",
        "numbers -> Event completed", "numbers -> isDisposed",
      ])
    let timestamp = lines.all[0].prefix(23)
    XCTAssertNotNil(
      timestamp.range(
        of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$"#, options: .regularExpression),
      "Unexpected timestamp \(timestamp)")
  }

  func test_debug_logsDisposalByTheSubscriber() {
    // given
    let lines = LockedValues<String>()
    let subject = PublishSubject<Int>()
    let subscription = subject.debug(identifier: "s", trimOutput: false) { lines.append($0) }
      .subscribe()
    // when
    subscription.dispose()
    subject.onNext(1)
    // then
    XCTAssertEqual(lines.all.count, 2)
    XCTAssertTrue(lines.all[1].hasSuffix("s -> isDisposed"))
  }

  func test_debug_trimsLongEventDescriptions() {
    // given
    let long = String(repeating: "x", count: 50)
    // when
    let trimmed = debugText(Event.next(long), trimmed: true)
    let untouched = debugText(Event.next(long), trimmed: false)
    // then
    XCTAssertEqual(trimmed, "next(xxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx)")
    XCTAssertEqual(untouched, "next(\(long))")
  }

  func test_debug_defaultIdentifierNamesFileLineAndFunction() {
    // given
    let file = "/path/to/Sources/Feature/FeatureReactor.swift"
    // when
    let identifier = debugIdentifier(file: file, line: 42, function: "mutate(action:)")
    // then
    XCTAssertEqual(identifier, "FeatureReactor.swift:42 (mutate(action:))")
  }
}
