import ReactorKit

/// Holds a store's observable and sets each new state on it. The native store's subscription
/// holds it (not the store, which it would otherwise have to reference weakly).
///
/// The class and its fields; the behaviour (`observable`, `receive`, `publish`) is in
/// `CoreTypes/Store.swift`. Both fields are read on every state, so they are declared without
/// the dynamic exclusivity check.
@usableFromInline
final class StatePublisher<ObservableProperty: ObservablePropertyType>: @unchecked Sendable {
  // Safety: `storedObservable` is guarded by `lock`, except for an observable that is a class:
  // then it never changes after `init` and is read without it. `receive` and `publish` (and so
  // `storedHasReceivedCurrentState`) run inside the native store's turn, serially. No two
  // accesses of either field overlap.
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var storedObservable: ObservableProperty
  @exclusivity(unchecked) @usableFromInline var storedHasReceivedCurrentState = false

  @inlinable
  init(_ observable: ObservableProperty) {
    unsafe storedObservable = observable
  }

  /// The observable as last stored; guarded by `lock` unless the observable is a class.
  @inlinable
  var observableField: ObservableProperty {
    @inline(__always) get { unsafe storedObservable }
    @inline(__always) set { unsafe storedObservable = newValue }
  }

  /// Whether the native store's current state (its first value, which the observable already
  /// holds) was received.
  @inlinable
  var hasReceivedCurrentState: Bool {
    @inline(__always) get { unsafe storedHasReceivedCurrentState }
    @inline(__always) set { unsafe storedHasReceivedCurrentState = newValue }
  }
}
