#if canImport(SwiftUI)
  import SwiftUI

  extension ObservedReactor {
    /// A binding that reads the value at `path` from the state and sends an action for each
    /// value written to it.
    ///
    /// ```swift
    /// TextField("Name", text: model.binding(\.name, send: ProfileReactor.Action.setName))
    /// ```
    ///
    /// Reading the binding reads the model, so a view that uses it is updated when the value
    /// changes. Writing it sends `action(newValue)`; the binding shows the new value once the
    /// reactor has reduced it.
    ///
    /// - Parameters:
    ///   - path: The state property the binding shows.
    ///   - action: Makes the action to send for a new value.
    /// - Returns: A binding to use on the main actor.
    public func binding<Value>(
      _ path: KeyPath<R.State, Value>, send action: @escaping (Value) -> R.Action
    ) -> Binding<Value> {
      mainActorBinding(read: { self[dynamicMember: path] }, write: { self.send(action($0)) })
    }
  }
#endif
