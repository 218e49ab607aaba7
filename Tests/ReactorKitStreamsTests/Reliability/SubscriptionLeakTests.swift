import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// A subscription made with `subscribe(onNext:…)` that has ended, by a terminal event or by
/// `dispose()`, must not keep its closures alive through the disposable it returned: an owner
/// that keeps that disposable (in a bag or a property) and is captured by the closures would
/// otherwise never be freed.
final class SubscriptionLeakTests: ResourceTestCase {
  func test_subscribe_completedSubjectSubscriptionInABag_releasesItsOwner() {
    // given
    let subject = PublishSubject<Int>()
    var owner: Owner? = Owner(subject.asObservable())
    weak let weakOwner = owner
    // when
    subject.onNext(1)
    subject.onCompleted()
    owner = nil
    // then
    XCTAssertNil(weakOwner, "the completed subscription kept its owner alive")
  }

  func test_subscribe_failedOperatorChainInABag_releasesItsOwner() {
    // given
    let subject = PublishSubject<Int>()
    var owner: Owner? = Owner(subject.map { $0 + 1 }.filter { $0 > 0 })
    weak let weakOwner = owner
    // when
    subject.onError(TestError(1))
    owner = nil
    // then
    XCTAssertNil(weakOwner)
  }

  func test_subscribe_synchronouslyCompletingSourceInABag_releasesItsOwner() {
    // given: the sequence ends before `subscribe` returns
    var owner: Owner? = Owner(Observable.of(1, 2, 3).map { $0 * 2 })
    weak let weakOwner = owner
    XCTAssertEqual(owner?.total, 12)
    // when
    owner = nil
    // then
    XCTAssertNil(weakOwner)
  }

  func test_subscribe_disposedSubscriptionKeptInAProperty_releasesItsOwner() {
    // given
    let subject = PublishSubject<Int>()
    var owner: PropertyOwner? = PropertyOwner(subject.asObservable())
    weak let weakOwner = owner
    // when
    owner?.subscription?.dispose()
    owner = nil
    // then
    XCTAssertNil(weakOwner, "the disposed subscription kept its owner alive")
    XCTAssertFalse(subject.hasObservers)
  }

  func test_subscribe_discardedDisposable_keepsTheSubscriptionRunning() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    // when
    _ = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    // then
    XCTAssertEqual(received, [1, 2])
  }

  func test_subscribe_disposingTheReturnedDisposable_stillDisposesTheSource() {
    // given: a source that holds nothing but its disposable
    var disposedSource = false
    var disposedCalls = 0
    let subscription = Observable<Int>.create { _ in
      Disposables.create { disposedSource = true }
    }
    .subscribe(onDisposed: { disposedCalls += 1 })
    // when
    subscription.dispose()
    subscription.dispose()
    // then
    XCTAssertTrue(disposedSource)
    XCTAssertEqual(disposedCalls, 1)
    XCTAssertTrue((subscription as? Cancelable)?.isDisposed ?? false)
  }

  func test_subscribe_endedSubscription_reportsItselfDisposed() {
    // given
    let subject = PublishSubject<Int>()
    let subscription = subject.subscribe(onNext: { _ in })
    XCTAssertFalse((subscription as? Cancelable)?.isDisposed ?? true)
    // when
    subject.onCompleted()
    // then
    XCTAssertTrue((subscription as? Cancelable)?.isDisposed ?? false)
  }
}

/// Keeps its subscription in a dispose bag; the closure captures the owner strongly.
private final class Owner {
  let bag = DisposeBag()
  var total = 0

  init(_ source: Observable<Int>) {
    source.subscribe(onNext: { self.total += $0 }, onError: { _ in self.total = -1 })
      .disposed(by: bag)
  }
}

/// Keeps its subscription in a property; the closure captures the owner strongly.
private final class PropertyOwner {
  var subscription: Disposable?
  var total = 0

  init(_ source: Observable<Int>) {
    subscription = source.subscribe(onNext: { self.total += $0 })
  }
}
