import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class HooksTests: ResourceTestCase {
  private var savedHandler: Hooks.DefaultErrorHandler!
  private var savedCapture: Hooks.CustomCaptureSubscriptionCallstack!

  override func setUp() {
    super.setUp()
    savedHandler = Hooks.defaultErrorHandler
    savedCapture = Hooks.customCaptureSubscriptionCallstack
  }

  override func tearDown() {
    Hooks.defaultErrorHandler = savedHandler
    Hooks.customCaptureSubscriptionCallstack = savedCapture
    Hooks.recordCallStackOnError = false
    super.tearDown()
  }

  func test_defaultErrorHandler_receivesUnhandledErrors() {
    // given
    let received = Received()
    Hooks.defaultErrorHandler = { callStack, error in
      received.append("\((error as? TestError)?.id ?? -1) \(callStack.count)")
    }
    // when
    _ = Observable<Int>.error(TestError(1)).subscribe(onNext: { _ in })
    _ = Observable<Int>.error(TestError(2)).subscribe(onError: { _ in })
    _ = Single<Int>.error(TestError(3)).subscribe(onSuccess: { _ in })
    _ = Maybe<Int>.error(TestError(4)).subscribe()
    _ = Completable.error(TestError(5)).subscribe(onCompleted: {})
    _ = Observable<Int>.just(6).subscribe()
    // then
    XCTAssertEqual(received.all, ["1 0", "3 0", "4 0", "5 0"])
  }

  func test_recordCallStackOnError_passesTheCapturedStack() {
    // given
    let received = Received()
    Hooks.customCaptureSubscriptionCallstack = { ["frame 1", "frame 2"] }
    Hooks.defaultErrorHandler = { callStack, _ in received.append(callStack.joined(separator: ","))
    }
    let subject = PublishSubject<Int>()
    // when
    Hooks.recordCallStackOnError = true
    _ = subject.subscribe(onNext: { _ in })
    Hooks.recordCallStackOnError = false
    _ = subject.subscribe(onNext: { _ in })
    subject.onError(TestError(1))
    // then
    XCTAssertEqual(received.all, ["frame 1,frame 2", ""])
  }
}

/// A thread-safe list of strings for the hooks' `@Sendable` closures.
private final class Received: @unchecked Sendable {
  // Safety: guarded by `lock`.
  private let lock = NSLock()
  private var values: [String] = []

  func append(_ value: String) { lock.withLock { values.append(value) } }
  var all: [String] { lock.withLock { values } }
}
