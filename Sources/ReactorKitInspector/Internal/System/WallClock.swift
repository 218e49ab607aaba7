#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The wall-clock time in seconds since 1970 (`CLOCK_REALTIME`), as the inspector stamps its
/// events.
@inline(__always)
func wallClockSeconds() -> Double {
  var time = timespec()
  unsafe clock_gettime(CLOCK_REALTIME, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
