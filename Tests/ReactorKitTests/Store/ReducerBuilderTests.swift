import ReactorKit
import ReactorKitTesting
import XCTest

final class ReducerBuilderTests: ResourceTestCase {
  func test_combine_runsTheListedReducersInOrder() {
    // given
    let reducer = Reducer<[String]>.combine {
      appending("a")
      appending("b")
      appending("c")
    }
    var state: [String] = []
    // when
    reducer.reduce(&state, BuilderAction())
    // then
    XCTAssertEqual(state, ["a", "b", "c"])
  }

  func test_combine_conditionsAndLoopsChooseTheReducersOnce() {
    // given
    var evaluations = 0
    func build(_ flag: Bool, _ mode: Int) -> Reducer<[String]> {
      evaluations += 1
      return .combine {
        appending("first")
        if flag { appending("if") }
        if mode == 0 { appending("zero") } else { appending("other") }
        switch mode {
        case 0: appending("case0")
        default: appending("default")
        }
        for index in 0..<2 { appending("loop\(index)") }
        if #available(macOS 14, *) { appending("available") }
      }
    }
    var on: [String] = []
    var off: [String] = []
    // when
    let reducerOn = build(true, 0)
    let reducerOff = build(false, 1)
    reducerOn.reduce(&on, BuilderAction())
    reducerOn.reduce(&on, BuilderAction())
    reducerOff.reduce(&off, BuilderAction())
    // then
    XCTAssertEqual(evaluations, 2)
    XCTAssertEqual(on.count, 14)
    XCTAssertEqual(
      Array(on.prefix(7)), ["first", "if", "zero", "case0", "loop0", "loop1", "available"])
    XCTAssertEqual(off, ["first", "other", "default", "loop0", "loop1", "available"])
  }

  func test_combine_ofNothingLeavesTheStateAlone() {
    // given
    let reducer = Reducer<[String]>.combine {
      if false { appending("never") }
    }
    var state = ["x"]
    // when
    reducer.reduce(&state, BuilderAction())
    // then
    XCTAssertEqual(state, ["x"])
  }

  func test_reducerBuilder_onAComputedProperty() {
    // given
    var state: [String] = ["unlifted"]
    // when
    BuilderFeature.reducer.reduce(&state, BuilderAction())
    // then
    XCTAssertEqual(state, ["lifted", "feature"])
  }
}

// MARK: - Fakes

private struct BuilderAction: Action {}

private func appending(_ text: String) -> Reducer<[String]> {
  Reducer { state, _ in state.append(text) }
}

private enum BuilderFeature {
  @ReducerBuilder<[String]>
  static var reducer: Reducer<[String]> {
    appending("feature")
    Reducer<String> { text, _ in text = "lifted" }.lift(\[String][0])
  }
}
