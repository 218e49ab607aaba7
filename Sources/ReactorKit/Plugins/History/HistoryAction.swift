/// A store action that moves a ``StateHistory`` through its recorded states.
///
/// Dispatch it (or let the history's navigation methods dispatch it): the history's reducer
/// replaces the state with the recorded one, so the store publishes the restored state like
/// any other. It is `Codable`, so a recording can replay navigation too (register it in the
/// ``ActionRegistry``).
public struct HistoryAction: Action, Codable, Equatable, Sendable {
  /// Where to move.
  public enum Command: Codable, Equatable, Sendable {
    /// Back by this many entries (undo), stopping at the oldest; 0 or less does not move.
    case stepBack(Int)
    /// Forward by this many entries (redo), stopping at the newest; 0 or less does not move.
    case stepForward(Int)
    /// To the entry at this index, from 0 (the oldest entry kept); ignored if out of range.
    case jump(to: Int)
  }

  /// The ``StateHistory/name`` of the history it is for; other histories ignore it.
  public var history: String
  public var command: Command

  /// Creates a navigation action for the history named `history`.
  public init(history: String, command: Command) {
    self.history = history
    self.command = command
  }
}

extension HistoryAction {
  /// Whether `action` is a ``HistoryAction``: the existential is opened and its type compared
  /// by identity (a few instructions, where a cast looks the dynamic type up in the runtime on
  /// every action the history's reducer sees).
  static func isHistoryAction(_ action: any Action) -> Bool {
    func check<Opened: Action>(_: Opened) -> Bool {
      ObjectIdentifier(Opened.self) == ObjectIdentifier(HistoryAction.self)
    }
    return check(action)
  }
}
