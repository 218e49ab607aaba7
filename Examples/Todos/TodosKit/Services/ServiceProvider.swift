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
}

/// The base of every service: holds the provider, unowned, to reach the store and the other
/// services without a reference cycle (the provider owns its services).
open class Service {
  public unowned let provider: ServiceProviderType

  public init(provider: ServiceProviderType) {
    self.provider = provider
  }
}

/// The app's service provider: the store plus one instance of each service, made lazily.
public final class ServiceProvider: ServiceProviderType {
  public let store: Store<AppState>
  public lazy var todoService: TodoServiceType = TodoService(provider: self)
  public lazy var userService: UserServiceType = UserService(provider: self)
  public lazy var settingsService: SettingsServiceType = SettingsService(provider: self)

  /// Creates a provider around `store`.
  public init(store: Store<AppState>) {
    self.store = store
  }

  /// Creates a provider with a fresh store over `state` and `middleware`.
  public convenience init(state: AppState = AppState(), middleware: [Middleware<AppState>] = []) {
    self.init(store: Store(reducer: AppState.reducer, state: state, middleware: middleware))
  }
}
