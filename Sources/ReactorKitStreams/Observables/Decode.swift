import Foundation

/// A decoder of `Decodable` values from `Data`, such as `JSONDecoder` and
/// `PropertyListDecoder`: what ``ObservableType/decode(type:decoder:)`` uses.
public protocol DataDecoder {
  /// Decodes a value of `type` from `data`.
  func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
  /// Decodes each element into a value of `type` with `decoder`; a decoding error ends the
  /// sequence with it.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - decoder: The decoder, for example a `JSONDecoder`.
  /// - Returns: The decoded values.
  @inlinable
  public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder)
    -> Observable<Item>
  {
    map { try decoder.decode(type, from: $0) }
  }
}
