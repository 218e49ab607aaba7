import Foundation

/// A plain error for tests. Errors compare like RxTest compares them (same `NSError` domain
/// and code), so the id is the error code: `TestError(1)` and `TestError(2)` differ.
struct TestError: Error, Equatable, CustomNSError {
  let id: Int
  init(_ id: Int = 0) { self.id = id }

  var errorCode: Int { id }
}
