@_spi(Reflection) import Swift

/// What is wrong with the ``AtomicSlot`` layout of `type` as `slots` declares it: one sentence
/// per problem, none when every slot is where its index says.
///
/// Reads the real offsets of `type`'s stored properties (superclasses' included) from the
/// runtime's field metadata and checks, for each case `x` of `slots`, that the stored property
/// `xSlot` exists and starts at word `x.rawValue` of the stored properties; and that every
/// stored property of `type` itself (not of a superclass, which declares its own) whose name
/// ends in `Slot` is one of the declared slots. Tests call it for
/// each production owner (`AtomicSlotLayoutTests`); nothing calls it at run time.
package func atomicSlotLayoutProblems<Index: AtomicSlotIndex>(
  of type: AnyClass, slots: Index.Type
) -> [String] {
  // The runtime lists a class's fields with its superclasses' first, each at its offset.
  func fields(of type: AnyClass) -> [(name: String, offset: Int)] {
    var fields: [(name: String, offset: Int)] = []
    // `_EachFieldOptions.classType` (bit 0), spelled by value: the static is a `var`.
    _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) {
      name, offset, _, _ in
      fields.append((String(cString: name), offset))
      return true
    }
    return fields
  }
  let all = fields(of: type)
  let inherited = _getSuperclass(type).map { fields(of: $0).count } ?? 0
  let offsets = Dictionary(
    all.map { ($0.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
  let ownNames = all.dropFirst(inherited).map(\.name)
  let firstOffset = all.map(\.offset).min()
  guard let base = firstOffset else { return ["\(type) has no stored properties."] }
  var problems: [String] = []
  var declared: Set<String> = []
  for slot in Index.allCases {
    let name = "\(slot)Slot"
    declared.insert(name)
    let expected = base + slot.rawValue * MemoryLayout<Int>.stride
    guard let offset = offsets[name] else {
      problems.append("\(type) declares slot \(slot) but has no stored property \(name).")
      continue
    }
    if offset != expected {
      problems.append(
        "\(type).\(name) is at byte \(offset - base) of the stored properties, but slot "
          + "\(slot) says word \(slot.rawValue) (byte \(expected - base)).")
    }
  }
  for name in ownNames where name.hasSuffix("Slot") && !declared.contains(name) {
    problems.append("\(type).\(name) looks like an atomic slot but \(Index.self) omits it.")
  }
  return problems
}
