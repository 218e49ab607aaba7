/// Who holds the server's connections, and whom to close to make room for a new one.
///
/// A new connection starts *unauthenticated*: it may hold one of at most
/// ``InspectorLimits/maximumUnauthenticatedConnections`` slots. When they are all taken, the
/// oldest unauthenticated connection is closed (one being answered only if no other is left).
/// Age, not activity, decides, so trickling bytes doesn't keep a slot, and clients without the
/// token can't keep a newcomer (the page, with the token) out. A request carrying the token
/// makes its connection *authenticated*; an event stream also takes one of at most
/// ``InspectorLimits/maximumEventStreams`` stream slots, so streams always leave connections
/// for API requests. When all ``InspectorLimits/maximumConnections`` are taken, a connection
/// is closed: an unauthenticated one not being answered, else the least recently active
/// authenticated one waiting for its next request, else an unauthenticated one being
/// answered; a newcomer is refused only when every connection is authenticated and busy
/// (answering, reading a request, or streaming).
///
/// A value type without I/O: the server keeps it under its lock and closes the descriptors
/// the methods return.
struct ConnectionSlots {
  enum Kind: Equatable {
    case unauthenticated
    case authenticated
    case stream
  }

  struct Entry {
    var descriptor: Int32
    var kind: Kind
    /// A request is being answered (an authenticated connection is never closed then).
    var isBusy = false
    /// Part of a request has arrived.
    var hasPartialRequest = false
    /// When it was admitted and when it was last active, in ``ConnectionSlots``'s own count
    /// of events.
    var admitted: UInt64
    var lastActive: UInt64
  }

  /// What admitting a connection decided.
  enum Admission: Equatable {
    /// Admitted as `id`, after taking the slots of the connections on `closing` to make
    /// room. Those not being answered stop waiting for more and close, once they answered
    /// a request that already arrived; those being answered (`interrupting`, a subset) must
    /// be shut down, or a client reading slowly would keep the thread for the write timeout.
    case admitted(id: Int, closing: [Int32], interrupting: [Int32])
    /// No room: every connection is busy.
    case refused
  }

  let maximumConnections: Int
  let maximumUnauthenticated: Int
  let maximumStreams: Int
  private(set) var entries: [Int: Entry] = [:]
  private var nextID = 0
  private var tick: UInt64 = 0

  init(limits: InspectorLimits) {
    maximumConnections = max(1, limits.maximumConnections)
    maximumUnauthenticated = max(
      1, min(limits.maximumUnauthenticatedConnections, maximumConnections))
    maximumStreams = max(0, min(limits.maximumEventStreams, maximumConnections - 1))
  }

  func count(_ kind: Kind) -> Int { entries.values.filter { $0.kind == kind }.count }

  /// Whether `id` still holds a slot (false once it was closed to make room, or removed).
  func holds(_ id: Int) -> Bool { entries[id] != nil }

  /// Admits a new connection on `descriptor`, closing others to make room if needed.
  mutating func admit(_ descriptor: Int32) -> Admission {
    var victims: [Int] = []
    if count(.unauthenticated) >= maximumUnauthenticated {
      guard let victim = oldestUnauthenticated(excluding: victims) else { return .refused }
      victims.append(victim)
    }
    if entries.count - victims.count >= maximumConnections {
      guard
        let victim = oldestUnauthenticated(excluding: victims, includingBusy: false)
          ?? leastRecentlyActiveIdleAuthenticated(excluding: victims)
          ?? oldestUnauthenticated(excluding: victims)
      else { return .refused }
      victims.append(victim)
    }
    let interrupting = victims.compactMap {
      entries[$0]?.isBusy == true ? entries[$0]?.descriptor : nil
    }
    let closing = victims.compactMap { entries.removeValue(forKey: $0)?.descriptor }
    let id = nextID
    nextID += 1
    tick += 1
    entries[id] = Entry(
      descriptor: descriptor, kind: .unauthenticated, admitted: tick, lastActive: tick)
    return .admitted(id: id, closing: closing, interrupting: interrupting)
  }

  /// `id` sent a request with the token.
  mutating func authenticate(_ id: Int) {
    guard entries[id]?.kind == .unauthenticated else { return }
    entries[id]?.kind = .authenticated
  }

  /// Turns `id` into an event stream, if a stream slot is free.
  mutating func beginStream(_ id: Int) -> Bool {
    guard let entry = entries[id] else { return false }
    if entry.kind == .stream { return true }
    guard count(.stream) < maximumStreams else { return false }
    entries[id]?.kind = .stream
    return true
  }

  /// Records what `id` is doing: answering a request (`busy`), or holding part of one.
  mutating func update(_ id: Int, busy: Bool, partialRequest: Bool) {
    guard entries[id] != nil else { return }
    tick += 1
    entries[id]?.isBusy = busy
    entries[id]?.hasPartialRequest = partialRequest
    entries[id]?.lastActive = tick
  }

  /// Frees `id`'s slot (its connection ended).
  mutating func remove(_ id: Int) {
    entries[id] = nil
  }

  /// The unauthenticated connection to close first: the oldest one waiting or reading a
  /// request, else the oldest being answered (one that reads its answer slowly would
  /// otherwise hold its slot for the whole write timeout).
  private func oldestUnauthenticated(excluding excluded: [Int], includingBusy: Bool = true)
    -> Int?
  {
    entries.filter { id, entry in
      entry.kind == .unauthenticated && !excluded.contains(id) && (includingBusy || !entry.isBusy)
    }
    .min { lhs, rhs in
      (lhs.value.isBusy ? 1 : 0, lhs.value.admitted) < (
        rhs.value.isBusy ? 1 : 0, rhs.value.admitted
      )
    }?.key
  }

  /// The authenticated connection to close first: the least recently active one that waits
  /// for its next request (not a stream, not busy, nothing of a request pending).
  private func leastRecentlyActiveIdleAuthenticated(excluding excluded: [Int]) -> Int? {
    entries.filter { id, entry in
      entry.kind == .authenticated && !entry.isBusy && !entry.hasPartialRequest
        && !excluded.contains(id)
    }.min { $0.value.lastActive < $1.value.lastActive }?.key
  }
}
