import ReactorKitCompatibility
import ReactorKitTesting
import XCTest

/// A ported file imports `ReactorKitCompatibility` and keeps ReactorKit's names `View` and
/// `StoryboardView` (scripts/check-traps.sh shows that without it they fail with a fix-it, and
/// that a file importing ReactorKit and SwiftUI meets only SwiftUI's `View`).
final class CompatibilityAliasesTests: ResourceTestCase {
  func test_viewAlias_bindsLikeReactorView() {
    // given
    let view = LegacyView()
    // when
    view.reactor = LegacyReactor()
    view.reactor = LegacyReactor()
    // then
    XCTAssertEqual(view.bindCount, 2)
    XCTAssertTrue((view as AnyObject) is any ReactorView)
  }

  func test_storyboardViewAlias_bindsOnceLoaded() {
    // given
    let screen = LegacyScreen()
    screen.reactor = LegacyReactor()
    let beforeLoad = screen.bindCount
    // when
    screen.isViewLoaded = true
    screen.performBinding()
    // then
    XCTAssertEqual(beforeLoad, 0)
    XCTAssertEqual(screen.bindCount, 1)
  }
}

// MARK: - Fakes

private final class LegacyReactor: Reactor {
  typealias Action = Never
  struct State {}
  let initialState = State()
}

private final class LegacyView: View {
  var disposeBag = DisposeBag()
  var bindCount = 0

  func bind(reactor: LegacyReactor) { bindCount += 1 }
}

private final class LegacyScreen: StoryboardView {
  var disposeBag = DisposeBag()
  var isViewLoaded = false
  var bindCount = 0

  func bind(reactor: LegacyReactor) { bindCount += 1 }
}
