import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// Random programs of effects started, cancelled by id, replacing each other
/// (`cancelInFlight`) and finishing in virtual time, compared with a plain model of which
/// effects are running.
final class EffectFuzzTests: ResourceTestCase {
  func test_effects_randomStartsCancelsAndAdvances_matchAPlainModel() {
    for seed in StressConfiguration.seeds(40) {
      // given
      var generator = SeededRandomNumberGenerator(seed: seed)
      let scheduler = TestScheduler(initialClock: 0)
      let store = Store(
        reducer: Reducer<[Int]>.on(FuzzDone.self) { done, action in done.append(action.token) },
        state: [],
        middleware: [
          .effects { action, _ in
            switch action {
            case let start as FuzzStart:
              let effect = Effect(
                Observable.just(FuzzDone(token: start.token))
                  .delay(.seconds(start.delay), scheduler: scheduler))
              guard let id = start.id else { return effect }
              return effect.cancellable(id: id, cancelInFlight: start.cancelInFlight)
            case let cancel as FuzzCancel:
              return .cancel(id: cancel.id)
            default:
              return .none
            }
          }
        ])
      var model = EffectModel()
      var token = 0
      // when
      for _ in 0..<60 {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<5:
          token += 1
          let start = FuzzStart(
            token: token,
            id: Bool.random(using: &generator) ? Int.random(in: 0..<3, using: &generator) : nil,
            delay: Int.random(in: 1...6, using: &generator),
            cancelInFlight: Bool.random(using: &generator))
          store.dispatch(start)
          model.start(start, now: scheduler.clock)
        case 5..<7:
          let id = Int.random(in: 0..<3, using: &generator)
          store.dispatch(FuzzCancel(id: id))
          model.cancel(id)
        default:
          let target = scheduler.clock + Int.random(in: 0...4, using: &generator)
          scheduler.advanceTo(target)
          model.advance(to: target)
        }
      }
      scheduler.advanceTo(scheduler.clock + 10)
      model.advance(to: scheduler.clock)
      // then
      XCTAssertEqual(store.currentState, model.delivered, "seed \(seed)")
    }
  }
}

private struct FuzzStart: Action {
  let token: Int
  let id: Int?
  let delay: Int
  let cancelInFlight: Bool
}

private struct FuzzCancel: Action {
  let id: Int
}

private struct FuzzDone: Action {
  let token: Int
}

/// Which effects run and when they deliver, written plainly.
private struct EffectModel {
  private var running: [(token: Int, id: Int?, due: Int)] = []
  private(set) var delivered: [Int] = []

  mutating func start(_ start: FuzzStart, now: Int) {
    if let id = start.id, start.cancelInFlight { cancel(id) }
    running.append((start.token, start.id, now + start.delay))
  }

  mutating func cancel(_ id: Int) {
    running.removeAll { $0.id == id }
  }

  /// Delivers the effects due by `time`, by due time, then in the order they started.
  mutating func advance(to time: Int) {
    let due = running.enumerated()
      .filter { $0.element.due <= time }
      .sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }
    delivered += due.map(\.element.token)
    running.removeAll { $0.due <= time }
  }
}
