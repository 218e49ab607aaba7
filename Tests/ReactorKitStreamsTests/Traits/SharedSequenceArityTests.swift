import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `Driver`/`Signal` `zip` and `combineLatest` for 2 to 8 sources, with and without a result
/// selector, in virtual time through `SharingScheduler.mock`.
final class SharedSequenceArityTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  /// Source `index` (0-based) emits `index + 1` at 210 + index and `10 * (index + 1)` at 300,
  /// then completes at 400 + index.
  private func makeSources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
    (0..<count).map { index in
      scheduler.createHotObservable([
        .next(210 + index, index + 1), .next(300, 10 * (index + 1)), .completed(400 + index),
      ])
    }
  }

  private func driverZip(_ d: [Driver<Int>]) -> Driver<[Int]> {
    switch d.count {
    case 2: return Driver.zip(d[0], d[1]) { [$0, $1] }
    case 3: return Driver.zip(d[0], d[1], d[2]) { [$0, $1, $2] }
    case 4: return Driver.zip(d[0], d[1], d[2], d[3]) { [$0, $1, $2, $3] }
    case 5: return Driver.zip(d[0], d[1], d[2], d[3], d[4]) { [$0, $1, $2, $3, $4] }
    case 6: return Driver.zip(d[0], d[1], d[2], d[3], d[4], d[5]) { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Driver.zip(d[0], d[1], d[2], d[3], d[4], d[5], d[6]) { [$0, $1, $2, $3, $4, $5, $6] }
    default:
      return Driver.zip(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]) {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private func signalZip(_ s: [Signal<Int>]) -> Signal<[Int]> {
    switch s.count {
    case 2: return Signal.zip(s[0], s[1]).map { [$0, $1] }
    case 3: return Signal.zip(s[0], s[1], s[2]).map { [$0, $1, $2] }
    case 4: return Signal.zip(s[0], s[1], s[2], s[3]).map { [$0, $1, $2, $3] }
    case 5: return Signal.zip(s[0], s[1], s[2], s[3], s[4]).map { [$0, $1, $2, $3, $4] }
    case 6: return Signal.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Signal.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map {
        [$0, $1, $2, $3, $4, $5, $6]
      }
    default:
      return Signal.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private func driverCombineLatest(_ d: [Driver<Int>]) -> Driver<[Int]> {
    switch d.count {
    case 2: return Driver.combineLatest(d[0], d[1]) { [$0, $1] }
    case 3: return Driver.combineLatest(d[0], d[1], d[2]) { [$0, $1, $2] }
    case 4: return Driver.combineLatest(d[0], d[1], d[2], d[3]) { [$0, $1, $2, $3] }
    case 5: return Driver.combineLatest(d[0], d[1], d[2], d[3], d[4]) { [$0, $1, $2, $3, $4] }
    case 6:
      return Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5]) { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5], d[6]) {
        [$0, $1, $2, $3, $4, $5, $6]
      }
    default:
      return Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]) {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private func signalCombineLatest(_ s: [Signal<Int>]) -> Signal<[Int]> {
    switch s.count {
    case 2: return Signal.combineLatest(s[0], s[1]).map { [$0, $1] }
    case 3: return Signal.combineLatest(s[0], s[1], s[2]).map { [$0, $1, $2] }
    case 4: return Signal.combineLatest(s[0], s[1], s[2], s[3]).map { [$0, $1, $2, $3] }
    case 5: return Signal.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { [$0, $1, $2, $3, $4] }
    case 6:
      return Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map {
        [$0, $1, $2, $3, $4, $5]
      }
    case 7:
      return Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map {
        [$0, $1, $2, $3, $4, $5, $6]
      }
    default:
      return Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  /// Runs `make` over `arity` drivers (or signals) built from ``makeSources(_:count:)``.
  private func run(
    arity: Int, signal: Bool,
    driver: ([Driver<Int>]) -> Driver<[Int]>, signalMake: ([Signal<Int>]) -> Signal<[Int]>
  ) -> TestableObserver<[Int]> {
    let scheduler = TestScheduler(initialClock: 0)
    let sources = makeSources(scheduler, count: arity)
    var observer: TestableObserver<[Int]>!
    SharingScheduler.mock(scheduler: scheduler) {
      if signal {
        let made = signalMake(sources.map { $0.asSignal(onErrorJustReturn: -1) })
        observer = scheduler.start { made.asObservable() }
      } else {
        let made = driver(sources.map { $0.asDriver(onErrorJustReturn: -1) })
        observer = scheduler.start { made.asObservable() }
      }
    }
    return observer
  }

  func test_zip_everyArity_driverWithSelector_signalWithTuples() {
    for arity in 2...8 {
      for signal in [false, true] {
        // when
        let observer = run(
          arity: arity, signal: signal, driver: driverZip, signalMake: signalZip)
        // then: every element hops to the (mocked) main scheduler, one tick later; as
        // RxSwift's fixed-arity zip, it completes once every source completed
        let context = "arity \(arity), signal \(signal)"
        XCTAssertEqual(
          observer.events.compactMap { $0.value.element },
          [Array(1...arity), (1...arity).map { 10 * $0 }], context)
        XCTAssertEqual(observer.events.map(\.time), [210 + arity, 301, 400 + arity], context)
        XCTAssertTrue(observer.events.last?.value.isCompleted ?? false, context)
      }
    }
  }

  func test_combineLatest_everyArity_driverWithSelector_signalWithTuples() {
    for arity in 2...8 {
      for signal in [false, true] {
        // when
        let observer = run(
          arity: arity, signal: signal, driver: driverCombineLatest,
          signalMake: signalCombineLatest)
        // then: the first combination once all sources emitted, then one per source at 301
        let context = "arity \(arity), signal \(signal)"
        let elements = observer.events.compactMap { $0.value.element }
        let expected =
          [Array(1...arity)]
          + (1...arity).map { updated in
            (1...arity).map { $0 <= updated ? 10 * $0 : $0 }
          }
        XCTAssertEqual(elements, expected, context)
        XCTAssertEqual(
          observer.events.map(\.time),
          [210 + arity] + Array(repeating: 301, count: arity) + [400 + arity], context)
        XCTAssertTrue(observer.events.last?.value.isCompleted ?? false, context)
      }
    }
  }
}
