#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Comparisons of values by their memory (`memcmp` and word loads), for the plugins' value
/// differences (`valueDifferences(from:to:…)`): two values with the same bytes are the same
/// value whatever their type, so they can be skipped without reflection.
enum MemoryComparison {
  /// Whether `old` and `new` have the same inline bytes: the same object, the same storage of
  /// a collection, or equal fields.
  static func haveSameBytes<Value>(_ old: Value, _ new: Value) -> Bool {
    unsafe withUnsafeBytes(of: old) { oldBytes in
      unsafe withUnsafeBytes(of: new) { newBytes in
        unsafe oldBytes.count == newBytes.count
          && (oldBytes.isEmpty
            || memcmp(oldBytes.baseAddress!, newBytes.baseAddress!, oldBytes.count) == 0)
      }
    }
  }

  /// Whether `old` and `new`, two values of one type, have the same inline bytes, without a
  /// dynamic cast (which the runtime can't do for some types, such as the storage inside an
  /// `InlineArray`).
  ///
  /// - Precondition: `type(of: old) == type(of: new)`.
  static func haveSameBytes(_ old: Any, sameTypeAs new: Any) -> Bool {
    precondition(type(of: old) == type(of: new), "MemoryComparison: values of two types")
    func openOld<Value>(_ old: Value) -> Bool {
      func openNew<Other>(_ new: Other) -> Bool {
        // `Other` is `Value` (checked above): reinterpreting is exact.
        haveSameBytes(old, unsafe unsafeBitCast(new, to: Value.self))
      }
      return _openExistential(new, do: openNew)
    }
    return _openExistential(old, do: openOld)
  }

  /// `==` of an element of `old` and one of `new` (by their indices) when `Element` is
  /// `Equatable`; `nil` otherwise. For ``sharedEnds(_:_:isEqual:)``, to compare a pair whose
  /// bytes differ.
  static func elementEquality<Element>(
    _ old: [Element], _ new: [Element]
  ) -> ((Int, Int) -> Bool)? {
    guard let equatable = Element.self as? any Equatable.Type else { return nil }
    func equality<Value: Equatable>(_: Value.Type) -> (Int, Int) -> Bool {
      // `Value` is `Element`, opened from its metatype: each array is reinterpreted as itself
      // (a cast would look the array type up at run time, on every comparison).
      let old = unsafe unsafeBitCast(old, to: [Value].self)
      let new = unsafe unsafeBitCast(new, to: [Value].self)
      return { old[$0] == new[$1] }
    }
    return equality(equatable)
  }

  /// How many elements at the start, and then at the end, `old` and `new` share: the same
  /// significant bytes, or (when `isEqual` is given) a pair whose bytes differ for which
  /// `isEqual(oldIndex, newIndex)` is `true`. The suffix is counted only if the prefix does
  /// not cover the shorter array; the same storage is one shared prefix of the whole array.
  ///
  /// Elements are compared a machine word at a time over their `size` bytes (a copy copies
  /// fields, not the padding after them), after whole blocks compared with one `memcmp` each.
  ///
  /// - Precondition: `Element` is not empty (`MemoryLayout<Element>.size > 0`).
  /// - Complexity: O(*n*) in the length of the shared ends, plus one block.
  static func sharedEnds<Element>(
    _ old: [Element], _ new: [Element], isEqual: ((Int, Int) -> Bool)?
  ) -> (prefix: Int, suffix: Int) {
    precondition(MemoryLayout<Element>.size > 0, "elements without bytes")
    let common = min(old.count, new.count)
    return unsafe old.withUnsafeBytes { oldBytes in
      unsafe new.withUnsafeBytes { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress else {
          return (0, 0)
        }
        if unsafe oldBase == newBase && old.count == new.count { return (common, 0) }
        let compare = ElementBytes(Element.self)
        let prefix = unsafe compare.matching(
          oldBase, from: 0, newBase, from: 0, step: 1, count: common, isEqual: isEqual)
        let suffix =
          unsafe prefix == common
          ? 0
          : compare.matching(
            oldBase, from: old.count - 1, newBase, from: new.count - 1, step: -1,
            count: common - prefix, isEqual: isEqual)
        return (prefix, suffix)
      }
    }
  }
}

/// Compares array elements of one type by their bytes, a machine word at a time, leaving out
/// the padding after the last field (which copies do not copy).
private struct ElementBytes {
  let stride: Int
  let size: Int
  /// For elements whose stride is a whole number of words: the mask of each word's
  /// significant bytes; empty otherwise (then `size` bytes are compared with `memcmp`).
  let masks: [UInt64]

  init<Element>(_: Element.Type) {
    let stride = MemoryLayout<Element>.stride
    let size = MemoryLayout<Element>.size
    self.stride = stride
    self.size = size
    guard stride % 8 == 0 else {
      masks = []
      return
    }
    masks = (0..<(stride / 8)).map { word in
      let significant = min(8, max(0, size - word * 8))
      return significant == 8 ? ~0 : (UInt64(1) << UInt64(significant * 8)) &- 1
    }
  }

  /// How many elements from `oldIndex` and `newIndex` on (stepping by `step`, 1 or -1) have
  /// the same significant bytes, at most `count`; `isEqual` (when given) is asked about a pair
  /// whose bytes differ.
  func matching(
    _ old: UnsafeRawPointer, from oldIndex: Int, _ new: UnsafeRawPointer, from newIndex: Int,
    step: Int, count: Int, isEqual: ((Int, Int) -> Bool)?
  ) -> Int {
    unsafe masks.withUnsafeBufferPointer { masks in
      var matched = 0
      var oldElement = unsafe old + oldIndex * stride
      var newElement = unsafe new + newIndex * stride
      let delta = step * stride
      // Whole blocks first, with one `memcmp` each: their padding is usually the same too
      // (zeroed pages), and where it is not the block is compared element by element.
      let block = max(1, 4_096 / max(1, stride))
      while matched + block <= count {
        let start = unsafe step > 0 ? oldElement : oldElement - (block - 1) * stride
        let other = unsafe step > 0 ? newElement : newElement - (block - 1) * stride
        guard unsafe memcmp(start, other, block * stride) == 0 else { break }
        matched += block
        unsafe oldElement += block * delta
        unsafe newElement += block * delta
      }
      while matched < count {
        var same = true
        if masks.isEmpty {
          same = unsafe memcmp(oldElement, newElement, size) == 0
        } else {
          for word in 0..<masks.count {
            let difference =
              unsafe oldElement.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)
              ^ newElement.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)
            if unsafe difference & masks[word] != 0 {
              same = false
              break
            }
          }
        }
        if !same {
          guard let isEqual,
            isEqual(oldIndex + matched * step, newIndex + matched * step)
          else { return matched }
        }
        matched += 1
        unsafe oldElement += delta
        unsafe newElement += delta
      }
      return matched
    }
  }
}
