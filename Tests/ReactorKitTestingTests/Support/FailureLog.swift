import ReactorKitTesting

/// Collects a ``TestStore``'s failures instead of reporting them.
final class FailureLog {
  private(set) var failures: [TestStoreFailure] = []
  var messages: [String] { failures.map(\.message) }

  func record(_ failure: TestStoreFailure) {
    failures.append(failure)
  }
}
