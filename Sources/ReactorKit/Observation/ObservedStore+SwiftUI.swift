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
      // Both closures are isolated to the main actor, so `parts` is only ever used there.
      let parts = UncheckedSendable((path: path, action: action))
      return Binding(
        get: { @MainActor in self[dynamicMember: parts.value.path] },
        set: { @MainActor in self.dispatch(parts.value.action($0)) })
    }
  }
#endif
