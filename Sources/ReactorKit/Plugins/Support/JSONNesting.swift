/// A pre-decoding check of JSON text: how deeply arrays and objects nest.
///
/// Decoders recurse once per level, so a small hostile document (`[[[[…`) could exhaust the
/// stack; scanning first bounds the work before any decoder runs. The scan is linear, needs no
/// allocation and does not validate the rest of the syntax.
package enum JSONNesting {
  /// Whether arrays and objects in `bytes` nest deeper than `limit` levels.
  package static func exceeds(_ limit: Int, in bytes: ArraySlice<UInt8>) -> Bool {
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return true }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
      default:
        break
      }
    }
    return false
  }
}
