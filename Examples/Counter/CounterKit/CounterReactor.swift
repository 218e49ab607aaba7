import ReactorKit

/// ReactorKit's classic counter: increase or decrease a value after a simulated delay,
/// showing a loading indicator meanwhile, and raise an alert at the limits.
///
/// A press while a change is in flight is ignored, so the value never leaves ``range``.
public final class CounterReactor: Reactor {
  /// What the user can do.
  public enum Action: Equatable, Sendable {
    case increase
    case decrease
  }

  /// How the state changes.
  public enum Mutation: Equatable, Sendable {
    case changeValue(by: Int)
    case setLoading(Bool)
    case setAlertMessage(String)
  }

  /// What the screen shows.
  public struct State {
    /// The counter.
    public var value: Int
    /// Whether a change is waiting for its delay.
    public var isLoading = false
    /// An alert to show once, raised when a press would leave the allowed range.
    @Pulse public var alertMessage: String?

    public init(value: Int) {
      self.value = value
    }
  }

  public let initialState: State
  /// The values the counter may take.
  public let range: ClosedRange<Int>
  private let delay: RxTimeInterval
  private let delayScheduler: SchedulerType

  /// Creates a counter.
  /// - Parameters:
  ///   - value: The starting value; must lie in `range`.
  ///   - range: The values the counter may take.
  ///   - delay: How long each change takes (a stand-in for a network call).
  ///   - scheduler: Where the delay runs: the main scheduler in the app, a `TestScheduler`
  ///     in tests.
  public init(
    value: Int = 0, range: ClosedRange<Int> = -5...5, delay: RxTimeInterval,
    scheduler: SchedulerType
  ) {
    precondition(range.contains(value), "CounterReactor: \(value) is outside \(range).")
    initialState = State(value: value)
    self.range = range
    self.delay = delay
    delayScheduler = scheduler
  }

  public func mutate(action: Action) -> Observable<Mutation> {
    let state = currentState
    guard !state.isLoading else { return .empty() }
    let step = action == .increase ? 1 : -1
    guard range.contains(state.value + step) else {
      let limit =
        action == .increase ? "maximum (\(range.upperBound))" : "minimum (\(range.lowerBound))"
      return .just(.setAlertMessage("The counter is already at its \(limit)."))
    }
    return .concat([
      .just(.setLoading(true)),
      Observable.just(.changeValue(by: step)).delay(delay, scheduler: delayScheduler),
      .just(.setLoading(false)),
    ])
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .changeValue(let step):
      state.value += step
    case .setLoading(let isLoading):
      state.isLoading = isLoading
    case .setAlertMessage(let message):
      state.alertMessage = message
    }
    return state
  }
}
