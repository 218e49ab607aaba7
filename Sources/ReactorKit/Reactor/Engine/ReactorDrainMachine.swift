import ReactorKitStreams

/// What waits for a reactor's drain, and when a drain must run: the reactor engine's queueing
/// rules as a closed state machine.
///
/// Its state is the two queues it owns and the core's ``Gate`` (who drains) read with the
/// core's ``ReactorLifecycle`` (where the core is in its life). Every method is called with the
/// core's lock held, changes what it names and returns what the caller must do next; the
/// caller (``ReactorCore``) does it after releasing the lock. The machine runs no user code,
/// touches no thread and never blocks, so it is tested on its own
/// (`ReactorDrainMachineTests`, over a gate in a plain word).
///
/// | lifecycle | gate | a submission | the drain's pass |
/// |---|---|---|---|
/// | unwired | closed | queued; nothing runs until the wiring ends | – |
/// | wired | idle | queued, and the gate claimed: the submitter schedules a drain | – |
/// | wired | busy | queued and announced: the holder's unlocked release fails, so the drain sees it | clears the announcement, takes mutations before actions, each kind in order |
/// | disposed | closed | dropped | stops, and releases the gate (it stays closed) |
///
/// Two more rules: an item submitted by the draining thread itself, outside a state delivery,
/// is run inline by the submitter (mutations that `mutate` emits synchronously are reduced at
/// once); and while a subscriber added during the wiring is still being sent the current
/// state, the end of the wiring leaves the gate closed, so nothing published overtakes that
/// first state. The gate's own transitions and memory orderings are `Gate`'s.
@usableFromInline
struct ReactorDrainMachine<Item> {
  /// Work taken first: mutations, and the engine's own items (hooks, queued subscribers,
  /// ends of streams), in the order they came.
  @usableFromInline var urgent = Queue<Item>()
  /// Actions, in the order they came, taken once no urgent work waits.
  @usableFromInline var actions = Queue<Item>()
  /// Subscribers of the state stream added while the core was being wired and still being
  /// sent the current state: the gate stays closed until they are done. Last, and 32 bits, so
  /// that the lifecycle's bytes that follow it in ``ReactorCore/Shared`` fill the word.
  @usableFromInline var wiringDeliveries: UInt32 = 0

  @inlinable init() {}

  /// What ``submitLocked(_:urgent:inline:lifecycle:gate:)`` did.
  @usableFromInline
  enum Submission: Equatable {
    /// The core is disposed: the item is dropped.
    case dropped
    /// The submitter is the draining thread, outside a state delivery: it processes the item
    /// itself, now. Nothing was queued.
    case runInline
    /// Queued for the drain that holds the gate (announced to it), or for the end of the
    /// wiring.
    case queued
    /// Queued, and the submitter claimed the idle gate: it schedules a drain.
    case queuedAndClaimed
  }

  /// Whether any work waits.
  @inlinable var isEmpty: Bool { urgent.isEmpty && actions.isEmpty }

  // The methods that only read are `mutating` too: called on the machine inside the core's
  // state block, a non-mutating one would get a copy, retaining and releasing the queues.

  /// Takes `item` in: drops it once the core is disposed, lets the submitter run it when
  /// `inline` holds, and otherwise queues it and makes sure a drain will take it.
  ///
  /// - Parameters:
  ///   - urgent: Whether the item goes ahead of the actions (a mutation, an engine item).
  ///   - inline: Whether the submitter may run it at once; evaluated only if the core is not
  ///     disposed (it reads what only the draining thread may read once it knows it is that
  ///     thread).
  @inlinable @inline(__always)
  mutating func submitLocked(
    _ item: Item, urgent: Bool, inline: @autoclosure () -> Bool, lifecycle: ReactorLifecycle,
    gate: Gate
  ) -> Submission {
    if lifecycle.isDisposed { return .dropped }
    if inline() { return .runInline }
    if urgent {
      self.urgent.append(item)
    } else {
      actions.append(item)
    }
    return wakeLocked(lifecycle: lifecycle, gate: gate) ? .queuedAndClaimed : .queued
  }

  /// Makes sure queued work will be drained, after work was queued or the wiring ended:
  /// opens the gate once the core is wired (claiming it when work waits), claims an idle gate,
  /// or announces the work to the drain in progress.
  ///
  /// - Returns: Whether the caller claimed the gate and must schedule a drain.
  @inlinable @inline(__always)
  mutating func wakeLocked(lifecycle: ReactorLifecycle, gate: Gate) -> Bool {
    guard lifecycle.isWired else { return false }
    let hasWork = !isEmpty
    if gate.state.isClosed {
      // Closed and wired: wired just now (with the lock held nothing else opens it). A
      // subscriber still being sent the current state since the wiring opens it when done.
      if wiringDeliveries > 0 { return false }
      // Opening publishes what the wiring set up.
      gate.openLocked(claiming: hasWork)
      return hasWork
    }
    guard hasWork else { return false }
    return gate.claimOrAnnounceLocked() == .claimed
  }

  /// A subscriber added while the core is being wired is about to be sent the current state
  /// outside the lock: the end of the wiring leaves the gate closed until it is done.
  @inlinable
  mutating func beginWiringDeliveryLocked() {
    wiringDeliveries += 1
  }

  /// Such a delivery is done: the last one opens the gate if the wiring has ended meanwhile.
  ///
  /// - Returns: Whether the caller claimed the gate and must schedule a drain.
  @inlinable
  mutating func endWiringDeliveryLocked(lifecycle: ReactorLifecycle, gate: Gate) -> Bool {
    wiringDeliveries -= 1
    return wakeLocked(lifecycle: lifecycle, gate: gate)
  }

  /// Begins a pass of the drain that holds the gate, whose unlocked release failed: once the
  /// core is disposed, releases the gate (it stays closed) and returns `false`, the drain
  /// ends; otherwise takes in what was announced (work queued from now on announces itself
  /// again) and returns `true`, the drain takes items with ``nextLocked(lifecycle:)``.
  @inlinable @inline(__always)
  mutating func beginPassLocked(lifecycle: ReactorLifecycle, gate: Gate) -> Bool {
    if lifecycle.isDisposed {
      gate.releaseLocked()
      return false
    }
    gate.clearAnnouncementLocked()
    return true
  }

  /// The next item for the drain: urgent work before actions; `nil` when nothing waits or
  /// the core was disposed meanwhile. The drain then tries its unlocked release.
  @inlinable @inline(__always)
  mutating func nextLocked(lifecycle: ReactorLifecycle) -> Item? {
    if lifecycle.isDisposed { return nil }
    if let item = urgent.popFirst() { return item }
    return actions.popFirst()
  }

  /// Closes the gate for good and takes everything queued, for a core being disposed; what
  /// is returned is released after the lock.
  @inlinable
  mutating func disposeLocked(gate: Gate) -> (urgent: Queue<Item>, actions: Queue<Item>) {
    gate.close()
    let taken = (urgent: urgent, actions: actions)
    urgent = Queue()
    actions = Queue()
    return taken
  }

  /// Takes the first urgent item that `matches` out of the queue, keeping the others in order.
  @inlinable
  mutating func removeFirstUrgentLocked(where matches: (Item) -> Bool) -> Item? {
    var found: Item?
    var kept = Queue<Item>()
    while let item = urgent.popFirst() {
      if found == nil, matches(item) {
        found = item
      } else {
        kept.append(item)
      }
    }
    urgent = kept
    return found
  }
}
