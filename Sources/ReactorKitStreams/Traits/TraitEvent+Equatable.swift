extension MaybeEvent: Equatable where Element: Equatable {
  /// Two events are equal when they are the same kind with equal elements; two errors are
  /// equal as ``errorsEqual(_:_:)`` compares them.
  public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.error(let left), .error(let right)): return errorsEqual(left, right)
    case (.completed, .completed): return true
    default: return false
    }
  }
}

extension CompletableEvent: Equatable {
  /// Two events are equal when both are completions, or both errors that
  /// ``errorsEqual(_:_:)`` finds equal.
  public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
    switch (lhs, rhs) {
    case (.error(let left), .error(let right)): return errorsEqual(left, right)
    case (.completed, .completed): return true
    default: return false
    }
  }
}
