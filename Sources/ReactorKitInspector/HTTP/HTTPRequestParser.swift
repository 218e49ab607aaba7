/// Parses HTTP/1.x requests from the bytes received so far, within the server's bounds.
///
/// It is a pure function of the buffer: call ``parse(_:)`` after each read; it reports a
/// complete request and how many bytes it used (the rest may be the next, pipelined request),
/// that more bytes are needed, or why the request is rejected (the status to answer with before
/// closing the connection). Only `Content-Length` bodies are accepted; `Transfer-Encoding` is
/// rejected, so there is no chunked decoding to get wrong.
///
/// `package` for the fuzz target (`Fuzz/ReactorKitFuzz`).
package struct HTTPRequestParser: Sendable {
  /// The result of parsing a buffer.
  package enum Outcome: Equatable {
    /// A complete request, which used the first `consumed` bytes.
    case request(HTTPRequest, consumed: Int)
    /// The request is incomplete: read more.
    case incomplete
    /// The request is rejected with this status (400, 413, 431, 501, 505); close afterwards.
    case failure(status: Int, reason: String)
  }

  /// The most bytes in the request line and headers together, with their line ends.
  var maximumHeaderBytes: Int
  /// The most header fields.
  var maximumHeaderCount: Int
  /// The largest body.
  var maximumBodyBytes: Int

  package init(maximumHeaderBytes: Int = 8_192, maximumHeaderCount: Int = 64, maximumBodyBytes: Int)
  {
    self.maximumHeaderBytes = maximumHeaderBytes
    self.maximumHeaderCount = maximumHeaderCount
    self.maximumBodyBytes = maximumBodyBytes
  }

  package func parse(_ buffer: [UInt8]) -> Outcome {
    guard let headerEnd = Self.endOfHeaders(in: buffer, limit: maximumHeaderBytes + 4) else {
      // Reject obvious garbage early instead of waiting for a header end that never comes;
      // it is checked before the size, so bad bytes get the same answer however many follow.
      if let early = Self.earlyRejection(buffer) { return early }
      if buffer.count > maximumHeaderBytes + 4 {
        return .failure(status: 431, reason: "request line and headers too large")
      }
      return .incomplete
    }
    guard headerEnd <= maximumHeaderBytes + 4 else {
      return .failure(status: 431, reason: "request line and headers too large")
    }
    let lines = Self.lines(buffer[0..<(headerEnd - 4)])
    guard let requestLine = lines.first else {
      return .failure(status: 400, reason: "no request line")
    }
    let head: (method: String, target: String, minor: Int)
    switch Self.parseRequestLine(requestLine) {
    case .success(let value): head = value
    case .failure(let outcome): return outcome
    }
    guard lines.count - 1 <= maximumHeaderCount else {
      return .failure(status: 431, reason: "too many header fields")
    }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let field = Self.parseField(line) else {
        return .failure(status: 400, reason: "malformed header field")
      }
      headers.append(field)
    }
    if headers.contains(where: { $0.name == "transfer-encoding" }) {
      return .failure(status: 501, reason: "Transfer-Encoding is not supported")
    }
    if head.minor == 1 && headers.filter({ $0.name == "host" }).count != 1 {
      return .failure(status: 400, reason: "exactly one Host header is required")
    }
    var bodyLength = 0
    let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
    if lengths.count > 1 { return .failure(status: 400, reason: "conflicting Content-Length") }
    if let text = lengths.first {
      guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(Self.isDigit),
        let length = Int(text)
      else {
        return .failure(status: 400, reason: "malformed Content-Length")
      }
      guard length <= maximumBodyBytes else {
        return .failure(status: 413, reason: "body larger than \(maximumBodyBytes) bytes")
      }
      bodyLength = length
    }
    guard buffer.count >= headerEnd + bodyLength else { return .incomplete }
    let (path, query): (String, [String: String])
    switch Self.splitTarget(head.target) {
    case .some(let value): (path, query) = value
    case .none: return .failure(status: 400, reason: "malformed request target")
    }
    let request = HTTPRequest(
      method: head.method, target: head.target, path: path, query: query,
      minorVersion: head.minor, headers: headers,
      body: Array(buffer[headerEnd..<(headerEnd + bodyLength)]))
    return .request(request, consumed: headerEnd + bodyLength)
  }

  // MARK: - Pieces

  /// The index just past the first `\r\n\r\n`, searching at most `limit` bytes.
  static func endOfHeaders(in buffer: [UInt8], limit: Int) -> Int? {
    let count = min(buffer.count, limit)
    guard count >= 4 else { return nil }
    var index = 3
    while index < count {
      if buffer[index] == 0x0A && buffer[index - 1] == 0x0D && buffer[index - 2] == 0x0A
        && buffer[index - 3] == 0x0D
      {
        return index + 1
      }
      index += 1
    }
    return nil
  }

  /// The longest method accepted (ours are `GET` and `POST`); both the early rejection and the
  /// full parse apply it, so a request gets the same answer however its bytes arrive.
  static let maximumMethodLength = 31

  /// A rejection that is already certain before the headers end: a request line that is not
  /// a method token followed by a space, or a control byte where none may be.
  private static func earlyRejection(_ buffer: [UInt8]) -> Outcome? {
    var index = 0
    while index < buffer.count, index <= maximumMethodLength {
      let byte = buffer[index]
      if byte == UInt8(ascii: " ") {
        return index == 0 ? .failure(status: 400, reason: "malformed request line") : nil
      }
      guard isTokenCharacter(byte) else {
        return .failure(status: 400, reason: "malformed request line")
      }
      index += 1
    }
    return index > maximumMethodLength
      ? .failure(status: 400, reason: "malformed request line") : nil
  }

  private static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 0x0D, index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A {
        lines.append(bytes[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    lines.append(bytes[start..<bytes.endIndex])
    return lines
  }

  private enum LineResult {
    case success((method: String, target: String, minor: Int))
    case failure(Outcome)
  }

  private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> LineResult {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].count <= maximumMethodLength,
      parts[0].allSatisfy(isTokenCharacter),
      !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else {
      return .failure(.failure(status: 400, reason: "malformed request line"))
    }
    let version = Array(parts[2])
    guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == 0x2E,
      isDigit(version[5]), isDigit(version[7])
    else {
      return .failure(.failure(status: 400, reason: "malformed HTTP version"))
    }
    guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
      return .failure(.failure(status: 505, reason: "only HTTP/1.0 and HTTP/1.1"))
    }
    guard parts[1].first == UInt8(ascii: "/") else {
      return .failure(.failure(status: 400, reason: "the target must be a path"))
    }
    return .success(
      (
        String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self),
        Int(version[7] - UInt8(ascii: "0"))
      ))
  }

  private static func parseField(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
      return nil
    }
    let name = line[line.startIndex..<colon]
    guard name.allSatisfy(isTokenCharacter) else { return nil }
    var value = line[(colon + 1)...]
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
    while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
    while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
    return (
      String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)
    )
  }

  private static func splitTarget(_ target: String) -> (String, [String: String])? {
    let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let rawPath = pieces[0].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard let path = PercentDecoding.decode(rawPath, plusIsSpace: false) else { return nil }
    var query: [String: String] = [:]
    if pieces.count == 2 {
      let rawQuery = pieces[1].split(
        separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
      for pair in rawQuery.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = PercentDecoding.decode(parts[0], plusIsSpace: true),
          let value = PercentDecoding.decode(parts.count == 2 ? parts[1] : "", plusIsSpace: true)
        else { return nil }
        if query[name] == nil { query[name] = value }
      }
    }
    return (path, query)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// RFC 9110 `tchar`.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte, orOneOf: "!#$%&'*+-.^_`|~")
  }

  /// Whether `byte` is an ASCII letter or digit, or one of the (ASCII) bytes of `others`: the
  /// shape of every character class the parser and ``HTTPResponse`` check.
  static func isLetterOrDigit(_ byte: UInt8, orOneOf others: String) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return others.utf8.contains(byte)
    }
  }
}
