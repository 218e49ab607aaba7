import ReactorKit

/// Undoes and redoes changes to the todos, by time travel through the store's history.
public protocol HistoryServiceType: AnyObject {
  /// How many changes can be undone.
  var undoCount: Int { get }
  /// How many undone changes can be redone.
  var redoCount: Int { get }

  /// Restores the todos as they were before the last change; emits whether there was one.
  func undo() -> Observable<Bool>
  /// Restores the todos as they were before the last undo; emits whether there was one.
  func redo() -> Observable<Bool>
}

/// The ``HistoryServiceType`` that dispatches the `StateHistory`'s navigation actions to the
/// app's store, so the restored todos reach every reactor through the store's slices (and
/// the logger and the state file see the step like any other change).
public final class HistoryService: Service, HistoryServiceType {
  private let history: StateHistory<TodosState>

  /// Creates the service for `history`, which must be wired into the provider's store.
  public init(provider: ServiceProviderType, history: StateHistory<TodosState>) {
    self.history = history
    super.init(provider: provider)
  }

  public var undoCount: Int { history.currentIndex }
  public var redoCount: Int { max(0, history.count - 1 - history.currentIndex) }

  public func undo() -> Observable<Bool> {
    step(.stepBack(1), possible: { $0.canStepBack })
  }

  public func redo() -> Observable<Bool> {
    step(.stepForward(1), possible: { $0.canStepForward })
  }

  private func step(
    _ command: HistoryAction.Command, possible: @escaping (StateHistory<TodosState>) -> Bool
  ) -> Observable<Bool> {
    Observable.deferred { [provider, history] in
      guard possible(history) else { return .just(false) }
      return provider.store.dispatchEffect(history.action(command), then: .just(true))
    }
  }
}
