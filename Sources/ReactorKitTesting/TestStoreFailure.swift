import Testing
import XCTest

/// A failed assertion of a ``TestStore``: a message and the source location it points at.
public struct TestStoreFailure: Sendable, CustomStringConvertible {
  /// What went wrong, as one or more full sentences.
  public let message: String
  /// The file (module/file) of the assertion's call site.
  public let fileID: StaticString
  /// The full path of the assertion's call site.
  public let filePath: StaticString
  /// The line of the assertion's call site.
  public let line: UInt
  /// The column of the assertion's call site.
  public let column: UInt

  /// Creates a failure at a source location.
  public init(
    message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.message = message
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The ``message``.
  public var description: String { message }

  /// Reports the failure to the running test: with Swift Testing's `Issue.record` inside a
  /// Swift Testing test, with `XCTFail` otherwise. Either way it points at the call site.
  public func reportToTestFramework() {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: String(describing: fileID), filePath: String(describing: filePath),
          line: Int(line), column: Int(column)))
    } else {
      XCTFail(message, file: filePath, line: line)
    }
  }
}
