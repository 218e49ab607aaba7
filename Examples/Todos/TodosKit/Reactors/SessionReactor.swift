import ReactorKit

/// Signs the user in and out, and shows who is signed in (from `store.slice(\.session.user)`).
public final class SessionReactor: Reactor {
  public enum Action: Equatable, Sendable {
    case logIn(name: String)
    case logOut
  }

  public enum Mutation: Equatable, Sendable {
    case setUser(User?)
    case setAlertMessage(String)
  }

  public struct State {
    public var user: User?
    /// A message to show once, such as a rejected name.
    @Pulse public var alertMessage: String?

    public init(user: User?) {
      self.user = user
    }
  }

  public let initialState: State
  private let provider: ServiceProviderType

  public init(provider: ServiceProviderType) {
    self.provider = provider
    initialState = State(user: provider.store.currentState.session.user)
  }

  public func mutate(action: Action) -> Observable<Mutation> {
    let alert = { (error: Error) in Mutation.setAlertMessage(String(describing: error)) }
    switch action {
    case .logIn(let name):
      return provider.userService.logIn(name: name).effect(onError: alert)
    case .logOut:
      return provider.userService.logOut().effect(onError: alert)
    }
  }

  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    .merge(mutation, provider.store.slice(\.session.user, as: Mutation.setUser))
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setUser(let user): state.user = user
    case .setAlertMessage(let message): state.alertMessage = message
    }
    return state
  }
}
