import ReactorKit
import ReactorKitTesting
import XCTest

/// ReactorKit code that must keep compiling and behaving: identity comparison, a declared
/// `scheduler`, and network-style traits returned from `mutate`.
final class ReactorCompatibilityTests: ResourceTestCase {
  func test_identityEquatable_comparesReactorsByIdentity() {
    // given
    let first = UserProfileReactor(api: FakeUserAPI())
    let second = UserProfileReactor(api: FakeUserAPI())
    // then
    XCTAssertEqual(first, first)
    XCTAssertNotEqual(first, second)
  }

  func test_identityHashable_usesReactorsAsSetMembersAndKeys() {
    // given
    let first = UserProfileReactor(api: FakeUserAPI())
    let second = UserProfileReactor(api: FakeUserAPI())
    // when
    let set: Set = [first, second, first]
    let names = [first: "first", second: "second"]
    // then
    XCTAssertEqual(set.count, 2)
    XCTAssertEqual(names[first], "first")
    XCTAssertEqual(first.hashValue, first.hashValue)
  }

  func test_declaredScheduler_compilesAndIsUsed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = DeclaredSchedulerReactor(scheduler: scheduler)
    // when
    let observer = scheduler.createObserver(Int.self)
    let subscription = reactor.state.subscribe(observer)
    scheduler.scheduleAt(100) { reactor.action.onNext(5) }
    scheduler.start()
    // then: the state hops onto the reactor's scheduler, one tick after the action
    XCTAssertEqual(observer.events.last, .next(101, 5))
    XCTAssertTrue(reactor.scheduler is TestScheduler)
    subscription.dispose()
  }

  func test_mutate_returnsSingleAsObservable_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let api = FakeUserAPI(scheduler: scheduler, latency: .seconds(30))
    let reactor = UserProfileReactor(api: api)
    let actions = scheduler.createHotObservable([
      .next(210, UserProfileReactor.Action.load(1)), .next(220, .load(2)), .next(300, .save),
    ])
    let sending = actions.subscribe(reactor.action)
    // when
    let observer = scheduler.start { reactor.state.map(\.summary) }
    // then: the second request replaces the first (flatMapLatest), and saving chains a
    // completable and a single
    XCTAssertEqual(
      observer.events,
      [
        .next(200, "none"), .next(210, "loading"), .next(220, "loading"),
        .next(250, "user 2"), .next(300, "loading"), .next(330, "saved user 2"),
      ])
    XCTAssertEqual(api.requests, [1, 2])
    sending.dispose()
  }
}

// MARK: - Fakes

private final class FakeUserAPI {
  let scheduler: SchedulerType?
  let latency: RxTimeInterval
  private(set) var requests: [Int] = []

  init(scheduler: SchedulerType? = nil, latency: RxTimeInterval = .seconds(0)) {
    self.scheduler = scheduler
    self.latency = latency
  }

  func fetchUser(id: Int) -> Single<String> {
    Single.create { [self] observer in
      requests.append(id)
      observer(.success("user \(id)"))
      return Disposables.create()
    }
    .delay(latency, scheduler: scheduler ?? MainScheduler.instance)
  }

  func save() -> Completable {
    Completable.empty().delay(latency, scheduler: scheduler ?? MainScheduler.instance)
  }
}

private final class UserProfileReactor: Reactor, IdentityHashable {
  enum Action {
    case load(Int)
    case save
  }

  enum Mutation {
    case setLoading
    case setSummary(String)
  }

  struct State {
    var summary = "none"
  }

  let initialState = State()
  private let api: FakeUserAPI
  private let loads = PublishSubject<Int>()

  init(api: FakeUserAPI) {
    self.api = api
  }

  func transform(action: Observable<Action>) -> Observable<Action> {
    action.share()
  }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .load(let id):
      loads.onNext(id)
      return .just(.setLoading)
    case .save:
      let summary = currentState.summary
      return Observable.concat(
        .just(.setLoading),
        api.save().andThen(Single.just("saved \(summary)")).asObservable()
          .map(Mutation.setSummary))
    }
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    let api = self.api
    let responses = loads.flatMapLatest { id in api.fetchUser(id: id).asObservable() }
      .map(Mutation.setSummary)
    return .merge(mutation, responses)
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading: state.summary = "loading"
    case .setSummary(let summary): state.summary = summary
    }
    return state
  }
}

/// A reactor written for ReactorKit 2, which required `scheduler`.
private final class DeclaredSchedulerReactor: Reactor {
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  let scheduler: ImmediateSchedulerType

  init(scheduler: ImmediateSchedulerType) {
    self.scheduler = scheduler
  }

  func reduce(state: State, mutation: Action) -> State { mutation }
}
