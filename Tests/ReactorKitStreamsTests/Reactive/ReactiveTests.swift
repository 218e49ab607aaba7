import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ReactiveTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  func test_reactiveExtension_onAnAppType() {
    // given
    let view = MessageInputView()
    var sent: [String] = []
    let subscription = view.rx.sendButtonTap.subscribe(onNext: { sent.append($0) })
    // when
    view.tapSend("hello")
    view.rx.isSending.onNext(true)
    // then
    XCTAssertEqual(sent, ["hello"])
    XCTAssertTrue(view.isSending)
    XCTAssertTrue(MessageInputView.rx.kind == "input")
    subscription.dispose()
  }

  func test_reactiveDynamicMember_isABinderOfTheProperty() {
    // given
    let view = MessageInputView()
    // when
    let binding = Observable.of("a", "b").bind(to: view.rx.title)
    // then
    XCTAssertEqual(view.title, "b")
    binding.dispose()
  }

  func test_nsObject_isReactiveCompatible() {
    // given
    let object = NSObject()
    // then
    XCTAssertTrue(object.rx.base === object)
  }

  func test_controlEvent_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let taps = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    // when
    let observer = scheduler.start { ControlEvent(events: taps).asObservable() }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(300)])
    XCTAssertEqual(taps.subscriptions, [Subscription(200, 300)])
  }

  func test_controlEvent_asDriverAndAsSignal() {
    // given
    let relay = PublishRelay<Int>()
    let event = ControlEvent(events: relay)
    var driven: [Int] = []
    var emitted: [Int] = []
    let subscriptions = [
      event.asDriver().drive(onNext: { driven.append($0) }),
      event.asSignal().emit(onNext: { emitted.append($0) }),
    ]
    // when
    relay.accept(1)
    runMainLoopUntil { driven == [1] && emitted == [1] }
    // then
    XCTAssertEqual(driven, [1])
    subscriptions.forEach { $0.dispose() }
  }

  func test_controlProperty_valuesChangedAndSink() {
    // given
    let field = TextField()
    let property = field.rx.text
    var values: [String?] = []
    var changes: [String?] = []
    let subscriptions = [
      property.subscribe(onNext: { values.append($0) }),
      property.changed.subscribe(onNext: { changes.append($0) }),
    ]
    // when
    field.userTyped("a")
    property.onNext("set")
    let orEmpty = field.rx.text.orEmpty
    var emptyValues: [String] = []
    let emptySubscription = orEmpty.subscribe(onNext: { emptyValues.append($0) })
    orEmpty.onNext("")
    // then
    XCTAssertEqual(values, [nil, "a"])
    XCTAssertEqual(changes, ["a"])
    XCTAssertEqual(field.text, "")
    XCTAssertEqual(emptyValues, ["set"])
    (subscriptions + [emptySubscription]).forEach { $0.dispose() }
  }

  func test_binder_bindsOnTheGivenScheduler_andHoldsTheTargetWeakly() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var view: MessageInputView? = MessageInputView()
    let binder = Binder<String>(view!, scheduler: scheduler) { view, title in view.title = title }
    // when
    scheduler.scheduleAt(10) { binder.onNext("x") }
    scheduler.advanceTo(20)
    let titleAfterFirst = view?.title
    view = nil
    scheduler.scheduleAt(30) { binder.onNext("y") }
    scheduler.start()
    // then
    XCTAssertEqual(titleAfterFirst, "x")
  }
}

// MARK: - Fakes

private final class MessageInputView: ReactiveCompatible {
  let sendTaps = PublishRelay<String>()
  var isSending = false
  var title = ""

  func tapSend(_ message: String) { sendTaps.accept(message) }
}

extension Reactive where Base: MessageInputView {
  fileprivate var sendButtonTap: ControlEvent<String> { ControlEvent(events: base.sendTaps) }
  fileprivate var isSending: Binder<Bool> {
    Binder(base) { view, sending in view.isSending = sending }
  }
  fileprivate static var kind: String { "input" }
}

private final class TextField: ReactiveCompatible {
  var text: String?
  let edits = PublishRelay<String?>()

  func userTyped(_ text: String) {
    self.text = text
    edits.accept(text)
  }
}

extension Reactive where Base: TextField {
  fileprivate var text: ControlProperty<String?> {
    let field = base
    return ControlProperty(
      values: Observable.deferred { [weak field] in
        Observable.just(field?.text).concat(field?.edits.asObservable() ?? .empty())
      },
      valueSink: Binder(field) { field, text in field.text = text })
  }
}
