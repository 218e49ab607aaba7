import ReactorKitStreams
import XCTest

/// Asserts that two lists of `Single` results are equal (RxTest's overload): successes with
/// equal elements, failures whose errors `errorsEqual` finds equal.
///
/// - Parameters:
///   - lhs: The results received.
///   - rhs: The results expected.
///   - file: The file reported on failure.
///   - line: The line reported on failure.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>],
  file: StaticString = #filePath, line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, file: file, line: line) { left, right in
    switch (left, right) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return errorsEqual(left, right)
    default: return false
    }
  }
}

/// Asserts that two lists of `Maybe` results are equal (RxTest's overload).
///
/// - Parameters:
///   - lhs: The results received.
///   - rhs: The results expected.
///   - file: The file reported on failure.
///   - line: The line reported on failure.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>],
  file: StaticString = #filePath, line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, file: file, line: line) { $0 == $1 }
}

/// Asserts that two lists of `Completable` results are equal (RxTest's overload).
///
/// - Parameters:
///   - lhs: The results received.
///   - rhs: The results expected.
///   - file: The file reported on failure.
///   - line: The line reported on failure.
public func XCTAssertEqual(
  _ lhs: [CompletableEvent], _ rhs: [CompletableEvent],
  file: StaticString = #filePath, line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, file: file, line: line) { $0 == $1 }
}

/// Fails with both lists and the first position where they differ unless `equal` holds
/// for each pair and the counts match.
private func assertEventsEqual<Event>(
  _ lhs: [Event], _ rhs: [Event], file: StaticString, line: UInt,
  _ equal: (Event, Event) -> Bool
) {
  let mismatch = lhs.indices.first { $0 < rhs.count && !equal(lhs[$0], rhs[$0]) }
  guard mismatch != nil || lhs.count != rhs.count else { return }
  let position = mismatch ?? min(lhs.count, rhs.count)
  XCTFail(
    "The events differ at position \(position): received \(lhs), expected \(rhs).",
    file: file, line: line)
}
