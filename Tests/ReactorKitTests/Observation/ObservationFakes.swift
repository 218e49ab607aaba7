import Foundation
import Observation
import ReactorKit
import ReactorKitStreams

/// Counts how often a `withObservationTracking` observer was told about a change, and where.
final class ChangeRecorder: Sendable {
  private let changes = AtomicBox<Int>(0)
  private let offMain = AtomicBox<Int>(0)

  /// How many changes were reported.
  var count: Int { changes.load(ordering: .acquiring) }

  /// How many changes were reported off the main thread.
  var offMainCount: Int { offMain.load(ordering: .acquiring) }

  func record() {
    if !MainScheduler.isMainThread { offMain.add(1, ordering: .acquiringAndReleasing) }
    changes.add(1, ordering: .acquiringAndReleasing)
  }
}

/// Tracks the observable properties `read` reads; the recorder counts the change reported
/// for them (Observation reports at most one change per tracking).
func trackChanges(_ read: () -> Void) -> ChangeRecorder {
  let recorder = ChangeRecorder()
  withObservationTracking(read, onChange: { recorder.record() })
  return recorder
}

/// Suspends until the main queue has run everything enqueued before the call.
///
/// An async test on the main actor runs inside a main-queue block, so the main queue runs
/// other blocks only while the test is suspended.
@MainActor
func mainQueueTurn() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}

/// Suspends (letting the main queue run) until `condition` holds or 10 s passed; returns
/// whether it held.
@MainActor
func suspend(until condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while !condition() {
    if Date() > deadline { return false }
    try? await Task.sleep(nanoseconds: 500_000)
  }
  return true
}

/// A value that is not `Equatable`.
struct Note {
  var text: String
}

/// A reactor whose state has `Equatable` properties, a non-`Equatable` one and a pulse.
final class ProfileReactor: Reactor, @unchecked Sendable {
  // Safety: the stored properties are immutable; the reactor's streams synchronise themselves.
  enum Action {
    case increase
    case setCount(Int)
    case setTitle(String)
    case setNote(String)
    case alert(String)
    case nothing
  }

  struct State {
    var count = 0
    var title = ""
    var note = Note(text: "")
    @Pulse var alert: String?
  }

  let initialState: State
  let scheduler: ImmediateSchedulerType

  init(
    initialState: State = State(),
    scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) {
    self.initialState = initialState
    self.scheduler = scheduler
  }

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .increase: state.count += 1
    case .setCount(let count): state.count = count
    case .setTitle(let title): state.title = title
    case .setNote(let text): state.note.text = text
    case .alert(let message): state.alert = message
    case .nothing: break
    }
    return state
  }
}

/// A reactor with an `Equatable` state.
final class TextReactor: Reactor {
  enum Action {
    case setText(String)
  }

  struct State: Equatable {
    var text = ""
    var length = 0
  }

  let initialState = State()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .setText(let text):
      state.text = text
      state.length = text.count
    }
    return state
  }
}
