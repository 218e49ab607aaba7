import ReactorKit

/// Counts of the todos.
public struct TodoStats: Equatable, Sendable {
  public var total: Int
  public var done: Int

  public init(total: Int = 0, done: Int = 0) {
    self.total = total
    self.done = done
  }

  /// The counts of `todos`.
  public init(_ todos: some Collection<Todo>) {
    self.init(total: todos.count, done: todos.count(where: \.isDone))
  }

  public var active: Int { total - done }

  /// The share of done todos, 0 to 100, rounded down; 0 for no todos.
  public var percentDone: Int { total == 0 ? 0 : done * 100 / total }
}

/// Statistics about the todos, derived from the store with `store.select` (recomputed only
/// when the counts change). It has no actions (the default `mutate` is used): it only
/// follows the store.
public final class StatsReactor: Reactor {
  public enum Action: Sendable {}

  public enum Mutation: Equatable, Sendable {
    case setStats(TodoStats)
  }

  public typealias State = TodoStats

  public let initialState: State
  private let provider: ServiceProviderType

  public init(provider: ServiceProviderType) {
    self.provider = provider
    initialState = TodoStats(provider.store.currentState.todos.items)
  }

  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    let stats = provider.store.select({ TodoStats($0.todos.items) }, isDuplicate: ==)
    return .merge(mutation, stats.map(Mutation.setStats))
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    switch mutation {
    case .setStats(let stats): stats
    }
  }
}
