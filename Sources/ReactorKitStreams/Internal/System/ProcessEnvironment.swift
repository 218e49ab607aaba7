#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's environment variables, read through `getenv` without Foundation.
package enum ProcessEnvironment {
  /// The value of the environment variable `name`, or `nil` when it is unset.
  package static func value(of name: String) -> String? {
    guard let value = unsafe getenv(name) else { return nil }
    return unsafe String(cString: value)
  }
}
