import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DecodeTests: ResourceTestCase {
  func test_decode_decodesEachElement() throws {
    // given
    let data = [#"{"id":1}"#, #"{"id":2}"#].map { Data($0.utf8) }
    // when
    let items = try Observable.from(data).decode(type: Item.self, decoder: JSONDecoder())
      .toBlocking(timeout: 1).toArray()
    // then
    XCTAssertEqual(items, [Item(id: 1), Item(id: 2)])
  }

  func test_decode_badDataEndsWithDecodingError() {
    // given
    let data = [Data(#"{"id":1}"#.utf8), Data("nope".utf8), Data(#"{"id":3}"#.utf8)]
    // when
    let result = Observable.from(data).decode(type: Item.self, decoder: JSONDecoder())
      .toBlocking(timeout: 1).materialize()
    // then
    guard case .failed(let elements, let error) = result else {
      return XCTFail("Expected a decoding error, got \(result).")
    }
    XCTAssertEqual(elements, [Item(id: 1)])
    XCTAssertTrue(error is DecodingError, "Expected a DecodingError, got \(error).")
  }

  func test_decode_acceptsAnyDataDecoder() throws {
    // given
    let decoder = FixedDecoder()
    // when
    let items = try Observable.just(Data()).decode(type: Item.self, decoder: decoder)
      .toBlocking(timeout: 1).toArray()
    // then
    XCTAssertEqual(items, [Item(id: 42)])
  }
}

private struct Item: Codable, Equatable {
  let id: Int
}

private struct FixedDecoder: DataDecoder {
  func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try JSONDecoder().decode(type, from: Data(#"{"id":42}"#.utf8))
  }
}
