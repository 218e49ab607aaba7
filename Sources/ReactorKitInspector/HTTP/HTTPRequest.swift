/// One parsed HTTP/1.x request (`package` for the fuzz target, `Fuzz/ReactorKitFuzz`).
package struct HTTPRequest: Sendable, Equatable {
  /// The method, as sent (`GET`, `POST`).
  package var method: String
  /// The request target as sent (`/api/events?since=3`).
  package var target: String
  /// The target's path, percent-decoded (`/api/events`).
  package var path: String
  /// The query parameters, percent-decoded; the first of a repeated name wins.
  package var query: [String: String]
  /// `1` for HTTP/1.1, `0` for HTTP/1.0.
  package var minorVersion: Int
  /// The header fields in order, names lowercased.
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]

  /// The first value of the header `name` (lowercase).
  func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }

  /// Whether the connection stays open after the response (HTTP/1.1 unless `close`; HTTP/1.0
  /// only with `keep-alive`).
  var keepsAlive: Bool {
    let connection = header("connection")?.lowercased() ?? ""
    let options = connection.split(separator: ",").map {
      $0.trimmingCharacters(in: " \t")
    }
    if minorVersion == 0 { return options.contains("keep-alive") }
    return !options.contains("close")
  }

  /// The value of the cookie `name`, if sent.
  func cookie(_ name: String) -> String? {
    for field in headers where field.name == "cookie" {
      for pair in field.value.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingCharacters(in: " \t") == name {
          return parts[1].trimmingCharacters(in: " \t")
        }
      }
    }
    return nil
  }

  package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
      && lhs.headers.map(\.name) == rhs.headers.map(\.name)
      && lhs.headers.map(\.value) == rhs.headers.map(\.value) && lhs.body == rhs.body
  }
}

extension Substring {
  func trimmingCharacters(in characters: String) -> String {
    var slice = self[...]
    while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}

/// Percent-decoding of URL components (`+` is a space in query strings).
enum PercentDecoding {
  static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace:
        bytes.append(UInt8(ascii: " "))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
