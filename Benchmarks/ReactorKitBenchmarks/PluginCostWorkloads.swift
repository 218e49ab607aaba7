import Foundation
import ReactorKit
import ReactorKitInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One row of a list: what a todo app keeps per item.
struct ListItem: Equatable, Identifiable, Sendable {
  var id: Int
  var title: String
  var isDone: Bool
}

/// A list of `count` items and a revision number.
struct ListState: Equatable, Sendable {
  var items: [ListItem]
  var revision = 0

  init(count: Int) {
    items = (0..<count).map { ListItem(id: $0, title: "Item \($0)", isDone: false) }
  }
}

/// Toggles the item at `index` (modulo the list's length).
struct ToggleItem: Action {
  var index: Int
}

/// Selects a revision: changes a number beside the list, not the list.
struct BumpRevision: Action {}

func listReducer() -> Reducer<ListState> {
  Reducer { state, action in
    if let toggle = action as? ToggleItem {
      state.items[toggle.index % state.items.count].isDone.toggle()
    } else if action is BumpRevision {
      state.revision += 1
    }
  }
}

/// What a plugin workload adds to the list store.
enum ListPlugin {
  case none
  case logger
  case inspector(page: Bool)
}

/// A list store of `count` items with `plugin` attached and one `state` subscriber; one op is
/// one dispatch that toggles one item.
private func listStore(count: Int, plugin: ListPlugin) -> Measured {
  Measured {
    var plugins: [any StorePlugin<ListState>] = []
    var keepAlive: AnyObject?
    switch plugin {
    case .none:
      break
    case .logger:
      // Events are formatted as text, as a file sink would write them, and discarded.
      let logger = LoggingPlugin(
        sink: LogSink { event in blackHole(event.formatted(as: .text).utf8.count) })
      plugins.append(logger.forStore())
      keepAlive = logger
    case .inspector(let page):
      let inspector = try? Inspector()
      if let inspector {
        plugins.append(inspector.forStore(source: "store"))
        if page { EventStreamReader.start(port: inspector.port, token: inspector.token) }
      }
      keepAlive = inspector
    }
    let store = Store(reducer: listReducer(), state: ListState(count: count), plugins: plugins)
    var total = 0
    let subscription = store.state.subscribe(onNext: { total &+= $0.revision &+ 1 })
    var next = 0
    return { operations in
      let start = total
      for _ in 0..<operations {
        next &+= 7_919
        store.dispatch(ToggleItem(index: next))
      }
      withExtendedLifetime(subscription) {}
      withExtendedLifetime(keepAlive) {}
      return total &- start
    }
  }
}

/// `list_<count>_<plugin>`: one dispatch that changes one item of a list of `count` items,
/// with the logger (formatting each event as text), or the inspector without a page, or with
/// one page reading its event stream. Baseline: the same store without the plugin, so the
/// difference is what the plugin adds per action; the targets compare the largest list with
/// the smallest.
func listPluginWorkloads() -> [Workload] {
  var workloads: [Workload] = []
  let plugins: [(String, ListPlugin)] = [
    ("logger", .logger), ("inspector", .inspector(page: false)),
    ("inspector_page", .inspector(page: true)),
  ]
  for (name, plugin) in plugins {
    for count in [100, 10_000, 100_000] {
      workloads.append(
        Workload(
          name: "list_\(count)_\(name)",
          subject: listStore(count: count, plugin: plugin),
          baseline: listStore(count: count, plugin: .none),
          validationCount: 100,
          targets: count == 100_000 ? [.relative(to: "list_100_\(name)", factor: 3)] : []))
    }
  }
  return workloads
}

// MARK: - A page catching up

/// `inspector_catch_up`: a page opening on a full ring of 10,000 events of a store whose state
/// is a list of 10,000 items, and reading the event stream from the start. Prints the time to
/// its first screen (the first batch of events the page renders) and to the whole timeline,
/// for events that change one item each and for events that leave the list alone.
func runCatchUpMeasurement() {
  for (label, changesList) in [("each event changes one item", true), ("list unchanged", false)] {
    // With the default byte budget: a list of 10,000 items copied by each change is about
    // 320 KB per event, so the ring keeps the newest 200 or so of them; a list left alone is
    // shared by every event, and the ring keeps all 10,000.
    guard let inspector = try? Inspector(capacity: 10_000) else { return }
    let store = Store(
      reducer: listReducer(), state: ListState(count: 10_000),
      plugins: [inspector.forStore(source: "store")])
    for index in 0..<10_000 {
      if changesList {
        store.dispatch(ToggleItem(index: index &* 7_919))
      } else {
        store.dispatch(BumpRevision())
      }
    }
    let timing = EventStreamTiming.measure(
      port: inspector.port, token: inspector.token, firstScreenEvents: 256)
    print(
      "inspector_catch_up (10,000 events over 10,000 items, \(label); \(timing.events) read): "
        + "first screen "
        + "\(format(timing.firstScreen.map { $0 * 1_000 }, digits: 0)) ms, all events "
        + "\(format(timing.all.map { $0 * 1_000 }, digits: 0)) ms, \(timing.bytes / 1_024) KiB")
    withExtendedLifetime(store) {}
  }
}

/// Reads an inspector's event stream from the start, as a page does, and times it.
enum EventStreamTiming {
  /// Seconds until `firstScreenEvents` events had arrived (or all, if fewer), and until the
  /// last byte of the stream (which ends when every event was written); a gap marker counts
  /// as an event.
  static func measure(port: UInt16, token: String, firstScreenEvents: Int)
    -> (firstScreen: Double?, all: Double?, bytes: Int, events: Int)
  {
    #if canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let start = nanoseconds()
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return (nil, nil, 0, 0) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array(
      "GET /api/events?since=0&follow=0&token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        .utf8)
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, request.count, 0) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var events = 0
    var bytes = 0
    var firstScreen: Double?
    var last = start
    var previous: UInt8 = 0
    // Reads until the server closes the stream (or nothing came for a minute).
    while true {
      let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 1 << 16, 0) }
      if received < 0 && (errno == EAGAIN || errno == EINTR)
        && Double(nanoseconds() - last) / 1e9 < 60
      {
        continue
      }
      guard received > 0 else { break }
      last = nanoseconds()
      bytes += received
      // Each event ends with a blank line: count "\n\n".
      for index in 0..<received {
        let byte = buffer[index]
        if byte == 10 && previous == 10 { events += 1 }
        previous = byte
      }
      if firstScreen == nil && events >= firstScreenEvents {
        firstScreen = Double(last - start) / 1e9
      }
    }
    let all = Double(last - start) / 1e9
    return (firstScreen ?? all, all, bytes, events)
  }
}
