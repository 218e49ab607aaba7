extension Queue {
  /// The slots the queue's storage holds, used or not (for tests of its memory).
  package var slotCount: Int { storage.count }
}
