import Observation
import ReactorKitStreams

/// A reactor as an observable model for SwiftUI and the Observation framework.
///
/// Read the reactor's state through the model as if it were the model's own properties
/// (`model.count` reads `state.count`), and send actions with ``send(_:)``. The model
/// conforms to `Observation.Observable`, so a SwiftUI view that reads `model.count` in its
/// `body` is updated when `count` changes, and only then: a state in which only `title`
/// changed does not invalidate it.
///
/// ```swift
/// struct CounterView: View {
///   @State private var model = ObservedReactor(CounterReactor())
///
///   var body: some View {
///     Button("\(model.value)") { model.send(.increase) }
///   }
/// }
/// ```
///
/// A property counts as changed when its new value differs by `==` (for `Equatable` values),
/// when it was assigned (for a ``Pulse``, read with `model.$property`), and on every new
/// state otherwise. Properties are tracked from the first time they are read through the
/// model.
///
/// - Complexity: Each new state costs one comparison per tracked property.
///
/// ## Threading
///
/// The model belongs to the main actor. States the reactor publishes on the main thread are
/// applied at once (a ``send(_:)`` from the main thread to a reactor on the default scheduler
/// has updated the model when it returns). States published on other threads are applied on
/// the main queue; when several arrive before the main queue runs, the model skips to the
/// latest. The model never shows an older state after a newer one.
///
/// ## Lifetime
///
/// The model holds the reactor strongly; the reactor does not hold the model. Releasing the
/// model ends its subscription to the reactor's state.
@MainActor
@dynamicMemberLookup
public final class ObservedReactor<R: Reactor> {
  /// The reactor the model shows.
  public let reactor: R

  @usableFromInline let observed: ObservedState<R.State>
  @usableFromInline let disposeBag = DisposeBag()

  /// Creates a model for `reactor` and starts following its state.
  ///
  /// - Parameter reactor: The reactor; the model keeps it alive.
  @inlinable
  public init(_ reactor: R) {
    self.reactor = reactor
    observed = ObservedState(reactor.currentState)
    observed.follow(reactor.state).disposed(by: disposeBag)
  }

  /// The reactor's current state, as last applied on the main actor.
  ///
  /// Reading the whole state makes an observer depend on all of it: any change of an
  /// `Equatable` state, or any new state otherwise, invalidates it. Prefer reading single
  /// properties.
  @inlinable
  public var state: R.State {
    observed.read(observed.wholeState)
  }

  /// The value at `path` of the current state, tracked as a property of the model.
  @inlinable
  public subscript<Value>(dynamicMember path: KeyPath<R.State, Value>) -> Value {
    observed.read(path)
  }

  /// The value at `path` of the current state, tracked as a property of the model that
  /// changes when the new value differs by `==`.
  @inlinable
  public subscript<Value: Equatable>(dynamicMember path: KeyPath<R.State, Value>) -> Value {
    observed.read(path)
  }

  /// Sends `action` to the reactor.
  ///
  /// - Parameter action: The action; processed as described by ``Reactor/action``.
  @inlinable
  public func send(_ action: R.Action) {
    reactor.action.onNext(action)
  }
}

extension ObservedReactor: Observation.Observable {}

extension ObservedReactor {
  /// Calls `handler` after each new state that changes properties read through the model, with
  /// those properties' key paths (`\\TodoState.title`): the views that read them are the ones
  /// that update, so this answers "why did this view update?". The whole state read as
  /// `model.state` shows as `\\.self`.
  ///
  /// Off until called; replaces an earlier handler; `nil` stops. Called on the main actor, after
  /// the model shows the new state.
  ///
  /// - Parameter handler: Receives the changed properties' key paths, in the order they were
  ///   first read through the model.
  public func explainChanges(_ handler: (@MainActor ([PartialKeyPath<R.State>]) -> Void)?) {
    observed.explainChanges(
      handler.map { handler in
        { paths in MainActor.assumeIsolated { handler(paths) } }
      })
  }
}
