#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// UTC timestamps in ISO 8601 form, formatted without locale or calendar settings so logs and
/// file names are the same on every machine.
enum LogTimestamp {
  /// `2025-01-31T09:15:02.125Z` (extended form, milliseconds).
  static func format(_ date: Date) -> String {
    let (parts, milliseconds) = utcParts(date)
    return
      "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
      + "\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(milliseconds, 3))Z"
  }

  /// `20250131T091502Z` (basic form, whole seconds): safe in file names.
  static func compact(_ date: Date) -> String {
    let (parts, _) = utcParts(date)
    return
      "\(pad(parts.year, 4))\(pad(parts.month, 2))\(pad(parts.day, 2))T\(pad(parts.hour, 2))"
      + "\(pad(parts.minute, 2))\(pad(parts.second, 2))Z"
  }

  /// Parses the form ``format(_:)`` writes; `nil` for anything else.
  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
      bytes[23] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let milliseconds = number(20..<23), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let seconds = UTCCalendar.seconds(
      of: UTCDateParts(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1_000)
  }

  private static func utcParts(_ date: Date) -> (UTCDateParts, Int) {
    let interval = date.timeIntervalSince1970
    var seconds = interval.rounded(.down)
    var milliseconds = Int(((interval - seconds) * 1_000).rounded())
    if milliseconds == 1_000 {
      seconds += 1
      milliseconds = 0
    }
    return (UTCCalendar.parts(ofSeconds: Int(seconds)), milliseconds)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}
