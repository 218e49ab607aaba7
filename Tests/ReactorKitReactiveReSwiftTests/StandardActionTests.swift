import ReactorKitReactiveReSwift
import XCTest

/// `StandardAction`, its dictionary form, and `StandardActionConvertible` (ReactiveReSwift's
/// StandardActionTests).
final class StandardActionTests: XCTestCase {
  func test_init_withTypeOnly() {
    let action = StandardAction(type: "Test")
    XCTAssertEqual(action.type, "Test")
    XCTAssertNil(action.payload)
    XCTAssertFalse(action.isTypedAction)
  }

  func test_init_withTypeAndPayload() {
    let action = StandardAction(type: "Test", payload: ["testKey": 5 as AnyObject])
    XCTAssertEqual(action.payload?["testKey"] as? Int, 5)
    XCTAssertEqual(action.type, "Test")
  }

  func test_initWithDictionary_nullPayloadIsNil() {
    // given
    let dictionary: [String: AnyObject] = [
      "type": "TestType" as AnyObject, "payload": "ReSwift_Null" as AnyObject,
      "isTypedAction": true as AnyObject,
    ]

    // when
    let action = StandardAction(dictionary: dictionary)

    // then
    XCTAssertEqual(action?.type, "TestType")
    XCTAssertNil(action?.payload)
    XCTAssertEqual(action?.isTypedAction, true)
  }

  func test_dictionaryRepresentation_holdsEveryField() {
    // given
    let action = StandardAction(
      type: "Test", payload: ["testKey": 5 as AnyObject], isTypedAction: true)

    // when
    let dictionary = action.dictionaryRepresentation

    // then
    XCTAssertEqual(dictionary["type"] as? String, "Test")
    XCTAssertEqual((dictionary["payload"] as? [String: AnyObject])?["testKey"] as? Int, 5)
    XCTAssertEqual(dictionary["isTypedAction"] as? Bool, true)
  }

  func test_roundTrip_keepsTypePayloadAndFlag() {
    for (payload, isTyped) in [
      (["testKey": 5 as AnyObject], false), (["testKey": 5 as AnyObject], true), (nil, false),
      (nil, true),
    ] as [([String: AnyObject]?, Bool)] {
      // given
      let action = StandardAction(type: "Test", payload: payload, isTypedAction: isTyped)

      // when
      let decoded = StandardAction(dictionary: action.dictionaryRepresentation)

      // then
      XCTAssertEqual(decoded?.type, "Test")
      XCTAssertEqual(decoded?.isTypedAction, isTyped)
      XCTAssertEqual(decoded?.payload?["testKey"] as? Int, payload?["testKey"] as? Int)
    }
  }

  func test_initWithDictionary_missingFields_isNil() {
    XCTAssertNil(StandardAction(dictionary: [:]))
    XCTAssertNil(StandardAction(dictionary: ["type": "Test" as AnyObject]))
    XCTAssertNil(
      StandardAction(dictionary: ["type": 3 as AnyObject, "isTypedAction": true as AnyObject]))
  }

  func test_convertible_initFromStandardAction() {
    XCTAssertEqual(
      SetValue(StandardAction(type: "Test", payload: ["value": 10 as AnyObject])).value, 10)
    XCTAssertEqual(
      SetText(StandardAction(type: "Test", payload: ["text": "10" as AnyObject])).text, "10")
  }

  func test_convertible_toStandardAction() {
    // when
    let value = SetValue(5).toStandardAction()
    let text = SetText("5").toStandardAction()

    // then
    XCTAssertEqual(value.type, "SetValue")
    XCTAssertTrue(value.isTypedAction)
    XCTAssertEqual(value.payload?["value"] as? Int, 5)
    XCTAssertEqual(text.type, "SetText")
    XCTAssertEqual(text.payload?["text"] as? String, "5")
  }
}
