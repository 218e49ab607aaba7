import ReactorKit
import ReactorKitTesting
import XCTest

final class DeferredReactorViewTests: ResourceTestCase {
  func test_assigningBeforeLoad_defersBindingUntilLoaded() {
    // given
    let screen = Screen()
    screen.reactor = ScreenReactor()
    let beforeLoad = screen.bindCount
    // when
    screen.viewDidLoad()
    // then
    XCTAssertEqual(beforeLoad, 0)
    XCTAssertEqual(screen.bindCount, 1)
  }

  func test_assigningAfterLoad_bindsAtOnce() {
    // given
    let screen = Screen()
    screen.viewDidLoad()
    // when
    screen.reactor = ScreenReactor()
    // then
    XCTAssertEqual(screen.bindCount, 1)
  }

  func test_reassigningBeforeLoad_bindsOnlyTheLatestReactor() {
    // given
    let screen = Screen()
    screen.reactor = ScreenReactor()
    let latest = ScreenReactor()
    screen.reactor = latest
    // when
    screen.viewDidLoad()
    // then
    XCTAssertEqual(screen.boundReactors.count, 1)
    XCTAssertTrue(screen.boundReactors.first === latest)
  }

  func test_reassigningAfterLoad_bindsAgain() {
    // given
    let screen = Screen()
    screen.reactor = ScreenReactor()
    screen.viewDidLoad()
    // when
    screen.reactor = ScreenReactor()
    // then
    XCTAssertEqual(screen.bindCount, 2)
  }

  func test_performBinding_bindsOnlyOnce() {
    // given
    let screen = Screen()
    screen.reactor = ScreenReactor()
    screen.viewDidLoad()
    // when
    screen.performBinding()
    screen.performBinding()
    // then
    XCTAssertEqual(screen.bindCount, 1)
  }

  func test_performBinding_withoutReactorDoesNothing() {
    // given
    let screen = Screen()
    // when
    screen.viewDidLoad()
    // then
    XCTAssertEqual(screen.bindCount, 0)
    XCTAssertNil(screen.reactor)
  }

  func test_releasingWhileDeferred_releasesViewAndReactor() {
    // given
    weak var weakScreen: Screen?
    weak var weakReactor: ScreenReactor?
    // when
    do {
      let screen = Screen()
      let reactor = ScreenReactor()
      weakScreen = screen
      weakReactor = reactor
      screen.reactor = reactor
    }
    // then
    XCTAssertNil(weakScreen)
    XCTAssertNil(weakReactor)
  }
}

// MARK: - Fakes

private final class ScreenReactor: Reactor {
  typealias Action = Never
  struct State {}
  let initialState = State()
}

private final class Screen: DeferredReactorView {
  var disposeBag = DisposeBag()
  private(set) var isViewLoaded = false
  private(set) var boundReactors: [ScreenReactor] = []
  var bindCount: Int { boundReactors.count }

  func viewDidLoad() {
    isViewLoaded = true
    performBinding()
  }

  func bind(reactor: ScreenReactor) {
    boundReactors.append(reactor)
  }
}
