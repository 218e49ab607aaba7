import Dispatch

/// A minimal command-line parser for the examples: flags and `--name value` options.
///
/// Each accessor consumes what it matched; ``finish()`` rejects anything left over.
public struct Arguments {
  private var remaining: [String]

  /// Parses `arguments` (by default the process arguments without the program name).
  public init(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
    remaining = arguments
  }

  /// Whether the flag `name` (e.g. `--online`) is present.
  public mutating func flag(_ name: String) -> Bool {
    guard let index = remaining.firstIndex(of: name) else { return false }
    remaining.remove(at: index)
    return true
  }

  /// The value of `--name value` or `--name=value`, if given.
  /// - Throws: ``ArgumentError`` when the option has no value.
  public mutating func option(_ name: String) throws -> String? {
    if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
      let value = String(remaining[index].dropFirst(name.count + 1))
      remaining.remove(at: index)
      return value
    }
    guard let index = remaining.firstIndex(of: name) else { return nil }
    guard index + 1 < remaining.count else {
      throw ArgumentError("\(name) needs a value.")
    }
    let value = remaining[index + 1]
    remaining.removeSubrange(index...(index + 1))
    return value
  }

  /// The value of `--name SECONDS` (a non-negative number, fractions allowed) as a time
  /// interval, or `defaultSeconds` when the option is absent.
  /// - Throws: ``ArgumentError`` when the value is not a non-negative number.
  public mutating func interval(_ name: String, default defaultSeconds: Double) throws
    -> DispatchTimeInterval
  {
    var seconds = defaultSeconds
    if let text = try option(name) {
      guard let value = Double(text), value >= 0, value.isFinite else {
        throw ArgumentError("\(name) expects a number of seconds, got '\(text)'.")
      }
      seconds = value
    }
    return .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
  }

  /// Rejects arguments that no accessor consumed.
  /// - Throws: ``ArgumentError`` naming the first unknown argument.
  public func finish() throws {
    if let unknown = remaining.first { throw ArgumentError("Unknown argument '\(unknown)'.") }
  }
}

/// A command-line mistake, described for the user.
public struct ArgumentError: Error, CustomStringConvertible, Equatable {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
