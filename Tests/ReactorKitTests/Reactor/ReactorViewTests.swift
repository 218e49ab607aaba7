import ReactorKit
import ReactorKitTesting
import XCTest

final class ReactorViewTests: ResourceTestCase {
  func test_assigningReactor_bindsEveryTime() {
    // given
    let view = CounterView()
    // when
    view.reactor = ViewReactor()
    let afterFirst = view.bindCount
    view.reactor = ViewReactor()
    // then
    XCTAssertEqual(afterFirst, 1)
    XCTAssertEqual(view.bindCount, 2)
  }

  func test_assigningReactor_replacesTheDisposeBag() {
    // given
    let view = CounterView()
    let original = view.disposeBag
    // when
    view.reactor = ViewReactor()
    // then
    XCTAssertFalse(view.disposeBag === original)
  }

  func test_assigningReactor_endsThePreviousBindings() {
    // given
    let view = CounterView()
    let first = ViewReactor()
    view.reactor = first
    // when
    view.reactor = ViewReactor()
    first.action.onNext(1)
    // then
    XCTAssertEqual(view.rendered, [0, 0])
  }

  func test_bindings_renderTheReactorsState() {
    // given
    let view = CounterView()
    let reactor = ViewReactor()
    view.reactor = reactor
    // when
    reactor.action.onNext(2)
    // then
    XCTAssertEqual(view.rendered, [0, 2])
  }

  func test_reactor_returnsTheAssignedReactor() {
    // given
    let view = CounterView()
    let reactor = ViewReactor()
    // when
    view.reactor = reactor
    // then
    XCTAssertTrue(view.reactor === reactor)
  }

  func test_assigningNil_clearsReactorWithoutBinding() {
    // given
    let view = CounterView()
    let reactor = ViewReactor()
    view.reactor = reactor
    // when
    view.reactor = nil
    reactor.action.onNext(1)
    // then
    XCTAssertNil(view.reactor)
    XCTAssertEqual(view.bindCount, 1)
    XCTAssertEqual(view.rendered, [0])
  }

  func test_reactor_isNilForANewView() {
    // given
    let view = CounterView()
    // when
    let reactor = view.reactor
    // then
    XCTAssertNil(reactor)
    XCTAssertEqual(view.bindCount, 0)
  }

  func test_releasingView_releasesItsReactor() {
    // given
    weak var weakView: CounterView?
    weak var weakReactor: ViewReactor?
    // when
    do {
      let view = CounterView()
      let reactor = ViewReactor()
      weakView = view
      weakReactor = reactor
      view.reactor = reactor
    }
    // then
    XCTAssertNil(weakView)
    XCTAssertNil(weakReactor)
  }
}

// MARK: - Fakes

private final class ViewReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

private final class CounterView: ReactorView {
  var disposeBag = DisposeBag()
  var bindCount = 0
  var rendered: [Int] = []

  func bind(reactor: ViewReactor) {
    bindCount += 1
    reactor.state
      .subscribe(onNext: { [weak self] in self?.rendered.append($0) })
      .disposed(by: disposeBag)
  }
}
