/// A value that describes something that happened, dispatched to a ``Store`` to change its
/// state: usually an enum or a struct.
///
/// ```swift
/// enum CounterAction: Action {
///   case increment
///   case add(Int)
/// }
/// store.dispatch(CounterAction.add(2))
/// ```
///
/// Actions cross threads: a store may reduce an action on a different thread than the one that
/// dispatched it. Keep them immutable values. Actions that are also `Codable` can be recorded
/// and replayed.
public protocol Action {}

/// ``Action`` under a name that stays unambiguous inside a reactor, where `Action` means the
/// reactor's own action type.
///
/// ```swift
/// final class ProfileReactor: Reactor {
///   enum Action { case save }
///   struct SessionExpired: StoreAction {}
/// }
/// ```
public typealias StoreAction = Action
