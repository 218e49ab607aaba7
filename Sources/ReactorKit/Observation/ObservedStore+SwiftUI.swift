#if canImport(SwiftUI)
  import SwiftUI

  extension ObservedStore {
    /// A binding that reads the value at `path` from the state and dispatches an action for
    /// each value written to it.
    ///
    /// ```swift
    /// Toggle("Show done", isOn: model.binding(\.showsDone, dispatch: TodoAction.setShowsDone))
    /// ```
    ///
    /// Reading the binding reads the model, so a view that uses it is updated when the value
    /// changes. Writing it dispatches `action(newValue)`; the binding shows the new value once
    /// the store has reduced it.
    ///
    /// - Parameters:
    ///   - path: The state property the binding shows.
    ///   - action: Makes the action to dispatch for a new value.
    /// - Returns: A binding to use on the main actor.
    public func binding<Value>(
      _ path: KeyPath<State, Value>, dispatch action: @escaping (Value) -> any Action
    ) -> Binding<Value> {
      mainActorBinding(read: { self[dynamicMember: path] }, write: { self.dispatch(action($0)) })
    }
  }
#endif
