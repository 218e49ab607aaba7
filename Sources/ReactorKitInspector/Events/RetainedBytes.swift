import ReactorKit

/// Estimates the bytes a recorded state keeps alive that the source's previous recorded state
/// does not already keep: the storage of its collections (arrays, dictionaries, sets) whose
/// buffers are new, its objects that are new, and its own size.
///
/// A store copies an array it changes (copy-on-write), so each recorded state after a change to
/// a list of `n` elements holds a buffer of `n` elements of its own; a state whose lists did not
/// change shares their buffers with the previous one and costs little. Elements' own heap
/// storage (long strings, nested arrays) is shared by such copies and not counted, so the
/// estimate is what copy-on-write copies, not everything reachable. A collection's buffer is
/// recognised by its identity, which ``SizedStorage`` (in EventRingStorage.swift) reads.
///
/// One estimator per source, used by the source's serialized recording path only.
///
/// - Complexity: Reflection of the state's fields down to its collections (not into them);
///   O(1) for a state without references (a plain struct of numbers).
struct RetainedBytes {
  /// What each event costs besides its state: the slot's boxes for the action and the states.
  static let eventOverhead = 128
  /// How deep reflection looks for collections.
  private static let maximumDepth = 8
  /// The most fields looked at per state; a larger state's estimate counts what was seen.
  private static let maximumFields = 512
  /// The storage identities of the previous state's collections and objects.
  private var previous: Set<UInt> = []
  private var current: Set<UInt> = []
  /// The previous state's versioned collections (``VersionedStorage``), by the field number
  /// the walk reached them at.
  private var previousVersions: [Int: Any] = [:]
  private var currentVersions: [Int: Any] = [:]

  /// The estimate for `state`, the source's newest state (or `nil` for an event without one),
  /// made against the previous state this estimator saw.
  mutating func estimate(_ state: Any?) -> Int {
    guard let state else { return Self.eventOverhead }
    var total = Self.eventOverhead + Self.inlineSize(of: state)
    current.removeAll(keepingCapacity: true)
    currentVersions.removeAll(keepingCapacity: true)
    var fields = 0
    walk(state, depth: 0, fields: &fields, total: &total)
    swap(&previous, &current)
    swap(&previousVersions, &currentVersions)
    return total
  }

  /// The estimate for a state whose type holds no references: its size.
  static func plainEstimate<State>(_: State.Type) -> Int {
    eventOverhead + MemoryLayout<State>.size
  }

  private mutating func walk(_ value: Any, depth: Int, fields: inout Int, total: inout Int) {
    fields += 1
    guard depth < Self.maximumDepth, fields < Self.maximumFields else { return }
    if let versioned = value as? any VersionedStorage {
      // A persistent collection: only the nodes it does not share with its previous version
      // are new; reflecting it would visit every element.
      total += versioned.bytesNotShared(with: previousVersions[fields])
      currentVersions[fields] = value
      return
    }
    if let storage = value as? any SizedStorage {
      let (identity, bytes) = storage.storage
      guard identity != 0 else { return }
      current.insert(identity)
      if !previous.contains(identity) { total += bytes }
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .class:
      let identity = UInt(bitPattern: ObjectIdentifier(value as AnyObject).hashValue)
      guard !current.contains(identity) else { return }
      current.insert(identity)
      if !previous.contains(identity) { total += 16 + Self.inlineSize(of: value) }
      for child in mirror.children {
        walk(child.value, depth: depth + 1, fields: &fields, total: &total)
      }
    case .struct, .tuple, .optional, .enum:
      for child in mirror.children {
        walk(child.value, depth: depth + 1, fields: &fields, total: &total)
      }
    default:
      return
    }
  }

  /// The size of `value`'s type.
  private static func inlineSize(of value: Any) -> Int {
    func size<Value>(_: Value) -> Int { MemoryLayout<Value>.size }
    return _openExistential(value, do: size)
  }
}

/// A collection whose versions share structure (``IdentifiedList``): a version costs the bytes
/// of the nodes it does not share with the previous one.
protocol VersionedStorage {
  /// The bytes of this version's storage that `previous` (the same field of the previous
  /// recorded state, if any) does not hold.
  func bytesNotShared(with previous: Any?) -> Int
}

extension IdentifiedList: VersionedStorage {
  func bytesNotShared(with previous: Any?) -> Int {
    // Per element: the element and its entry in the identifier index (id, hash, order keys).
    let perElement = MemoryLayout<Element>.stride + MemoryLayout<Element.ID>.stride + 24
    guard let previous = previous as? IdentifiedList<Element> else {
      // Leaves hold up to 32 entries; internal nodes add about one pointer per leaf.
      return count * perElement + (count / 24 + 1) * 2 * 96
    }
    if isIdentical(to: previous) { return 0 }
    let ranges = changedRanges(from: previous)
    // The changed leaves (at least one of 32 entries in each tree) and the nodes above them.
    var depth = 1
    var reach = 32
    while reach < count {
      reach *= 24
      depth += 1
    }
    return Swift.max(ranges.new.count, 32) * perElement * 2 + depth * 2 * (32 * 8 + 96)
  }
}
