import Foundation
import ReactorKit
import ReactorKitInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A counter store with one `state` subscriber, optionally instrumented by `inspector` (installed
/// as a plugin: its middleware and its time-travel reducer); one op is one dispatch.
private func counterStore(inspector: Inspector?) -> Measured {
  counterStore(plugins: inspector.map { [$0.forStore()] } ?? [])
}

/// The counter store of `store_dispatch_1sub` with `plugins` installed, one `state`
/// subscriber; one op is one dispatch.
func counterStore(plugins: [any StorePlugin<Counter>]) -> Measured {
  Measured {
    let store = Store(reducer: counterReducer(), state: Counter(), plugins: plugins)
    var total = 0
    let subscription = store.state.subscribe(onNext: { total &+= $0.count })
    return { count in
      let start = total
      for _ in 0..<count { store.dispatch(CounterAction.increment) }
      withExtendedLifetime(subscription) {}
      return total &- start
    }
  }
}

/// `inspector_idle_dispatch`: the counter store of `store_dispatch_1sub` with an inspector's
/// middleware and time-travel reducer, no page open; one op is one dispatch. Baseline: the
/// same store without the inspector, so the difference is what the inspector adds per
/// dispatch (it records the action and both states in its ring; rendering waits for a page).
func inspectorIdleDispatch() -> Workload {
  let inspector = try? Inspector(capacity: 10_000)
  return Workload(
    name: "inspector_idle_dispatch",
    subject: counterStore(inspector: inspector),
    baseline: counterStore(inspector: nil),
    targets: [.addedNanoseconds(100)])
}

/// `inspector_dispatch_one_client`: as `inspector_idle_dispatch`, with one page's event
/// stream open and read as fast as it arrives. The stream renders events on the server's
/// thread (a second core); a stream that falls behind skips to the newest events with a gap
/// marker, so the dispatching thread never waits for it. Baseline: the store without the
/// inspector.
func inspectorDispatchOneClient() -> Workload {
  let inspector = try? Inspector(capacity: 10_000)
  if let inspector { EventStreamReader.start(port: inspector.port, token: inspector.token) }
  return Workload(
    name: "inspector_dispatch_one_client",
    subject: counterStore(inspector: inspector),
    baseline: counterStore(inspector: nil),
    targets: [.ratio(4)])
}

/// A client that opens the inspector's event stream and discards what it reads, on its own
/// thread, for the life of the process.
enum EventStreamReader {
  static func start(port: UInt16, token: String) {
    let thread = Thread {
      #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #endif
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let connected = unsafe withUnsafePointer(to: &address) {
        unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          unsafe connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { return }
      let request = Array(
        "GET /api/events?since=0&token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
      _ = unsafe request.withUnsafeBytes {
        unsafe send(descriptor, $0.baseAddress, request.count, 0)
      }
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while unsafe buffer.withUnsafeMutableBytes({
        unsafe recv(descriptor, $0.baseAddress, 1 << 16, 0)
      }) > 0 {}
      close(descriptor)
    }
    thread.name = "inspector_dispatch_one_client.reader"
    thread.start()
  }
}
