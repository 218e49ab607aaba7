import Foundation

/// A plain error for tests.
struct TestError: Error, Equatable {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
}
