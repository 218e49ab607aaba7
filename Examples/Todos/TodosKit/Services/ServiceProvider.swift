import ReactorKit

/// Everything a reactor needs from the outside world: the app's store and its services.
///
/// One provider is created at the composition root (the app's `main.swift`, or a test) and
/// passed as the first initializer argument of every reactor.
public protocol ServiceProviderType: AnyObject {
  /// The app-wide store.
  var store: Store<AppState> { get }
  var todoService: TodoServiceType { get }
  var userService: UserServiceType { get }
  var settingsService: SettingsServiceType { get }
  var historyService: HistoryServiceType { get }
}

/// The base of every service: holds the provider, unowned, to reach the store and the other
/// services without a reference cycle (the provider owns its services).
open class Service {
  public unowned let provider: ServiceProviderType

  public init(provider: ServiceProviderType) {
    self.provider = provider
  }
}

/// The app's service provider: the store (with the todos' undo history installed) plus one
/// instance of each service, made lazily.
public final class ServiceProvider: ServiceProviderType {
  public let store: Store<AppState>
  public lazy var todoService: TodoServiceType = TodoService(provider: self)
  public lazy var userService: UserServiceType = UserService(provider: self)
  public lazy var settingsService: SettingsServiceType = SettingsService(provider: self)
  public lazy var historyService: HistoryServiceType = HistoryService(
    provider: self, history: history)
  private let history: StateHistory<TodosState>

  /// Creates the store and the services.
  ///
  /// - Parameters:
  ///   - state: The state to start from (for example one restored from a file).
  ///   - plugins: The app's plugins, such as a logger, a persistence and an inspector,
  ///     installed after the todos' undo history (list an inspector last).
  ///   - historyCapacity: How many versions of the todos undo can go back through.
  ///   - reducer: The app's reducer; tests pass another one to check what a recording
  ///     catches.
  public init(
    state: AppState = AppState(), plugins: [any StorePlugin<AppState>] = [],
    historyCapacity: Int = 100, reducer: Reducer<AppState>? = nil
  ) {
    history = StateHistory<TodosState>(name: "todos", capacity: historyCapacity)
    store = Store(
      reducer: reducer ?? AppState.reducer, state: state,
      plugins: [history.scoped(to: \.todos)] + plugins)
  }
}
