import Foundation

/// One line of a script: a command word and the rest of the line.
///
/// `"edit 2 Buy oat milk"` parses as name `edit` with argument text `2 Buy oat milk`.
public struct ScriptCommand: Equatable, Sendable {
  /// The first word, lowercased.
  public let name: String
  /// Everything after the first word, with surrounding spaces removed.
  public let argument: String

  /// Parses `line`; returns `nil` for blank lines and `#` comments.
  public init?(_ line: String) {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
    let name = trimmed.prefix { $0 != " " && $0 != "\t" }
    self.name = name.lowercased()
    argument = String(trimmed.dropFirst(name.count)).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The argument split at the first space: `"2 Buy oat milk"` gives `("2", "Buy oat milk")`.
  public var splitArgument: (first: String, rest: String) {
    let first = argument.prefix { $0 != " " && $0 != "\t" }
    return (
      String(first),
      String(argument.dropFirst(first.count)).trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }
}
