import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// What the merge family does with outer elements that arrive after the sequence stopped: an
/// outer that keeps emitting synchronously after an inner failed (its subscription is not
/// assigned yet, so nothing stops it), and `merge` over a collection.
final class MergeSelectorAfterStopTests: ResourceTestCase {
  /// An outer that emits 0, 1, 2 synchronously; the inner of 0 fails at once.
  private func failingOuter() -> Observable<Int> {
    Observable.create { observer in
      for value in 0..<3 { observer.onNext(value) }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  func test_flatMap_runsTheSelectorForEveryElementItReceives() {
    // given
    var selected: [Int] = []
    var events: [Event<Int>] = []
    // when
    let subscription = failingOuter()
      .flatMap { value -> Observable<Int> in
        selected.append(value)
        return value == 0 ? .error(TestError(1)) : .just(value)
      }
      .subscribe { events.append($0) }
    // then: as RxSwift's flatMap, which maps every element without looking at whether it
    // stopped; only the error is delivered
    XCTAssertEqual(selected, [0, 1, 2])
    XCTAssertEqual(events, [.error(TestError(1))])
    subscription.dispose()
  }

  func test_concatMap_runsNoSelectorOnceStopped() {
    // given
    var selected: [Int] = []
    var events: [Event<Int>] = []
    // when
    let subscription = failingOuter()
      .concatMap { value -> Observable<Int> in
        selected.append(value)
        return value == 0 ? .error(TestError(1)) : .just(value)
      }
      .subscribe { events.append($0) }
    // then: a limited merge checks before it maps
    XCTAssertEqual(selected, [0])
    XCTAssertEqual(events, [.error(TestError(1))])
    subscription.dispose()
  }

  func test_flatMapFirst_runsNoSelectorOnceStopped() {
    // given
    var selected: [Int] = []
    // when
    let subscription = failingOuter()
      .flatMapFirst { value -> Observable<Int> in
        selected.append(value)
        return .error(TestError(1))
      }
      .subscribe(onError: { _ in })
    // then
    XCTAssertEqual(selected, [0])
    subscription.dispose()
  }

  func test_mergeOfACollection_stopsTakingSourcesOnceStopped() {
    // given: a collection whose sources are made as they are taken
    var taken = 0
    let sources = (0..<4).lazy.map { index -> Observable<Int> in
      taken += 1
      return index == 0 ? .error(TestError(1)) : .just(index)
    }
    var events: [Event<Int>] = []
    // when
    let subscription = Observable.merge(sources).subscribe { events.append($0) }
    // then: the first source fails; the next one taken finds the sequence stopped, and no
    // further one is taken (all four were taken before)
    XCTAssertEqual(events, [.error(TestError(1))])
    XCTAssertEqual(taken, 2)
    subscription.dispose()
  }
}
