#if canImport(SwiftUI)
  import SwiftUI

  /// A binding that shows what `read` returns and passes each value written to it to
  /// `write`: the body of ``ObservedReactor/binding(_:send:)`` and
  /// ``ObservedStore/binding(_:dispatch:)``.
  ///
  /// SwiftUI reads and writes bindings on the main actor, where the models live, so both
  /// closures run there and need not be sendable.
  @MainActor
  func mainActorBinding<Value>(
    read: @escaping @MainActor () -> Value, write: @escaping @MainActor (Value) -> Void
  ) -> Binding<Value> {
    // Both closures are isolated to the main actor, so `parts` is only ever used there.
    let parts = UncheckedSendable((read: read, write: write))
    return Binding(
      get: { @MainActor in parts.value.read() },
      set: { @MainActor in parts.value.write($0) })
  }
#endif
