import Foundation
import Observation
import ReactorKit
import ReactorKitTesting
import XCTest

// The code below is the guide's tested listing (Documentation/SwiftUIAndObservation.md);
// `test_guide_containsTheTestedListingVerbatim` keeps the two identical.

final class ScoreReactor: Reactor {
  enum Action {
    case increase
    case setShowsHelp(Bool)
  }

  struct State {
    var title = "Score"
    var value = 0
    var showsHelp = false
  }

  let initialState = State()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .increase: state.value += 1
    case .setShowsHelp(let showsHelp): state.showsHelp = showsHelp
    }
    return state
  }
}

/// Renders the way SwiftUI does: reads the model while rendering, and renders again after
/// something it read has changed.
@MainActor
final class ScoreScreen {
  let model = ObservedReactor(ScoreReactor())
  private(set) var frames: [String] = []

  func render() {
    let frame = withObservationTracking {
      "\(model.title): \(model.value)"
    } onChange: { [weak self] in
      Task { @MainActor in self?.render() }
    }
    frames.append(frame)
  }
}

struct Todo: Equatable, Identifiable {
  var id: Int
  var title: String
  var isDone = false
}

struct TodoListState: Equatable {
  var todos: [Todo] = []
  var showsDone = true

  var visibleTodos: [Todo] { showsDone ? todos : todos.filter { !$0.isDone } }
}

struct GuideAppState {
  var todoList = TodoListState()
  var userName = "guest"
}

enum TodoAction: Action {
  case add(String)
  case setShowsDone(Bool)
}

enum SessionAction: Action {
  case logIn(String)
}

extension GuideAppState {
  static let reducer = Reducer<GuideAppState> { state, action in
    switch action {
    case TodoAction.add(let title):
      state.todoList.todos.append(Todo(id: state.todoList.todos.count, title: title))
    case TodoAction.setShowsDone(let showsDone):
      state.todoList.showsDone = showsDone
    case SessionAction.logIn(let name):
      state.userName = name
    default:
      break
    }
  }
}

@MainActor
final class TodoListScreen {
  let model: ObservedStore<TodoListState>
  private(set) var frames: [String] = []

  init(store: Store<GuideAppState>) {
    model = store.observed(\.todoList)
  }

  func render() {
    let frame = withObservationTracking {
      model.visibleTodos.map(\.title).joined(separator: ", ")
    } onChange: { [weak self] in
      Task { @MainActor in self?.render() }
    }
    frames.append(frame)
  }
}

// End of the guide's tested listing.

final class SwiftUIAndObservationGuideTests: ResourceTestCase {
  @MainActor
  func test_scoreScreen_rendersAgainAfterTheValueChanged() async {
    // given
    let screen = ScoreScreen()
    screen.render()
    // when
    screen.model.send(.increase)
    let rendered = await suspend { screen.frames.count == 2 }
    // then
    XCTAssertTrue(rendered)
    XCTAssertEqual(screen.frames, ["Score: 0", "Score: 1"])
  }

  @MainActor
  func test_scoreScreen_doesNotRenderWhenOnlyWhatItDidNotReadChanged() async {
    // given
    let screen = ScoreScreen()
    screen.render()
    // when
    screen.model.send(.setShowsHelp(true))
    await mainQueueTurn()
    // then
    XCTAssertEqual(screen.frames, ["Score: 0"])
    XCTAssertTrue(screen.model.showsHelp)
  }

  @MainActor
  func test_todoListScreen_rendersAgainOnlyWhenTheTodoListChanged() async {
    // given
    let store = Store(reducer: GuideAppState.reducer, state: GuideAppState())
    let screen = TodoListScreen(store: store)
    screen.render()
    // when
    store.dispatch(SessionAction.logIn("ada"))
    await mainQueueTurn()
    screen.model.dispatch(TodoAction.add("Write the guide"))
    let rendered = await suspend { screen.frames.count == 2 }
    // then
    XCTAssertTrue(rendered)
    XCTAssertEqual(screen.frames, ["", "Write the guide"])
  }

  @MainActor
  func test_releasingTheScreens_releasesTheirModels() async {
    // given
    weak var weakScore: ObservedReactor<ScoreReactor>?
    weak var weakTodos: ObservedStore<TodoListState>?
    let store = Store(reducer: GuideAppState.reducer, state: GuideAppState())
    // when
    do {
      let score = ScoreScreen()
      let todos = TodoListScreen(store: store)
      score.render()
      todos.render()
      weakScore = score.model
      weakTodos = todos.model
    }
    // then
    XCTAssertNil(weakScore)
    XCTAssertNil(weakTodos)
  }

  func test_guide_containsTheTestedListingVerbatim() throws {
    // given
    let testFile = URL(fileURLWithPath: #filePath)
    let guide = testFile.deletingLastPathComponent().appendingPathComponent(
      "../../../Documentation/SwiftUIAndObservation.md"
    ).standardized
    let source = try String(contentsOf: testFile, encoding: .utf8)
    let markdown = try String(contentsOf: guide, encoding: .utf8)
    // when
    let listing = try XCTUnwrap(Self.testedListing(in: source))
    // then
    XCTAssertTrue(
      markdown.contains("```swift\n" + listing + "```\n"),
      "The guide's tested listing differs from the code in \(testFile.lastPathComponent).")
  }

  /// The imports and the code between the listing markers of this file.
  private static func testedListing(in source: String) -> String? {
    guard
      let start = source.range(of: "keeps the two identical.\n\n"),
      let end = source.range(of: "// End of the guide's tested listing.")
    else { return nil }
    let imports = "import Observation\nimport ReactorKit\n\n"
    return imports + source[start.upperBound..<end.lowerBound].dropLast()
  }
}
