#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The system's monotonic clock (`CLOCK_MONOTONIC`), for durations.
enum MonotonicTime {
  /// The current reading, in nanoseconds.
  static func nanoseconds() -> UInt64 {
    var time = timespec()
    unsafe clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}

/// A moment of the UTC calendar to the second, as `timegm` and `gmtime_r` see it.
struct UTCDateParts: Equatable {
  var year: Int
  /// 1 to 12.
  var month: Int
  /// 1 to 31.
  var day: Int
  var hour: Int
  var minute: Int
  /// 0 to 60 (a leap second).
  var second: Int
}

/// Conversions between seconds since 1970 and UTC calendar parts (`timegm`, `gmtime_r`),
/// without locale or time-zone settings.
enum UTCCalendar {
  /// The seconds since 1970 of `parts` (`timegm`; out-of-range parts are normalised).
  static func seconds(of parts: UTCDateParts) -> Int {
    var fields = unsafe tm()
    unsafe fields.tm_year = Int32(parts.year - 1900)
    unsafe fields.tm_mon = Int32(parts.month - 1)
    unsafe fields.tm_mday = Int32(parts.day)
    unsafe fields.tm_hour = Int32(parts.hour)
    unsafe fields.tm_min = Int32(parts.minute)
    unsafe fields.tm_sec = Int32(parts.second)
    return Int(unsafe timegm(&fields))
  }

  /// The UTC calendar parts of `seconds` since 1970 (`gmtime_r`).
  static func parts(ofSeconds seconds: Int) -> UTCDateParts {
    var time = time_t(seconds)
    var fields = unsafe tm()
    unsafe gmtime_r(&time, &fields)
    return unsafe UTCDateParts(
      year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
      hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
  }
}
