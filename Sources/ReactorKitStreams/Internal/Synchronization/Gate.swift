/// One atomic word that decides who runs the serial work of an engine: the reactor engine's
/// drain, the store's turn, an observed model's state application, a subject's delivery.
///
/// The engines share one protocol. Work is queued under the engine's lock; one thread at a
/// time, the **holder**, processes it. An idle engine is claimed, and released when nothing
/// was queued meanwhile, with one compare-and-swap each and without the lock: the common,
/// uncontended case takes no lock at all.
///
/// - **claim** (``tryClaim()``, any thread, no lock): idle → ``busy``. The winner is the holder.
/// - **announce** (``claimOrAnnounceLocked()``, lock held, after queuing work): claims an idle
///   gate, or sets ``announced`` on a busy one, so the holder's unlocked release fails.
/// - **release** (``tryRelease()``, holder, no lock): ``busy`` → idle. It fails when anything
///   else is set: work was announced (or the gate was closed) since the holder last looked, so
///   the holder takes the lock, clears the announcement (``clearAnnouncementLocked()``) and
///   processes what was queued; or, finding nothing (or a closed engine), releases under the
///   lock (``releaseLocked()``).
/// - **close** (``close()``, any thread): sets ``closed``, which no claim and no unlocked
///   release gets past. ``openLocked(claiming:)`` clears it (the reactor engine opens its
///   gate once it is wired).
///
/// Why nothing is lost: whoever queues work holds the lock and then either claims the gate or
/// announces the work. A releasing compare-and-swap that succeeds therefore found no
/// announcement, so nothing was queued since the holder last looked at the queue (under the
/// lock); one that fails sends the holder back to the queue. `GateStressTests` fails when the
/// announcement, or the holder's check of it, is left out.
///
/// The bits each engine uses:
///
/// | Engine (gate) | ``busy`` | ``announced`` | ``closed`` |
/// |---|---|---|---|
/// | reactor engine (`ReactorCore`) | a drain is scheduled or running | work queued for it | until wired, and once disposed |
/// | store (`Store`) | a turn is held | work queued for a turn claimed without the lock | – |
/// | observed model (`ObservedState`) | a state is being applied or a drain is queued | a state left pending | the model is gone |
/// | subject (`SubjectCore`) | an event is being delivered | work or an observer-list change queued | – |
///
/// Memory orderings, the only place they are decided:
///
/// - A claim acquires and a release releases: the holder sees everything the previous holder
///   wrote, whether it released with or without the lock.
/// - Announcing needs no ordering of its own: the holder reads the announced work under the
///   lock, which orders it. The announcing compare-and-swap acquires anyway, because it may
///   claim instead.
/// - A failed release reads relaxed: the holder takes the lock next.
/// - Clearing the announcement is relaxed (lock held, by the holder); a release under the lock
///   releases.
/// - Closing acquires and releases: whoever sees the gate closed sees what the closer wrote
///   before.
///
/// The operations under the lock change only the bits they name (``closed`` may be set
/// concurrently without the lock), and each is one atomic instruction.
///
/// `Gate` is a view of a word stored elsewhere (see ``UnsafeAtomic``): in the owner's raw
/// state block (``initialize(at:closed:)``) or in an ``AtomicSlot`` (``init(_:of:)``).
/// Copies of a view refer to the same gate.
@frozen
@usableFromInline
package struct Gate: AtomicWordView, Sendable {
  /// The word.
  @usableFromInline package let word: UnsafeAtomic<UInt>

  /// A gate over `word`; ``AtomicWordView`` finds the word in a slot or at an address.
  @inlinable @inline(__always)
  package init(_ word: UnsafeAtomic<UInt>) { self.word = word }

  /// Initialises a gate in the word at `address`: idle, or closed.
  @inlinable
  @discardableResult
  package static func initialize(at address: UnsafeMutableRawPointer, closed: Bool = false) -> Gate
  {
    unsafe Gate(UnsafeAtomic.initialize(at: address, to: closed ? Gate.closed : Gate.idle))
  }

  // MARK: Bits

  /// No bit: nobody holds the gate, nothing is announced, not closed.
  @inlinable package static var idle: UInt { 0 }
  /// Somebody holds the gate (or a drain holding it is scheduled).
  @inlinable package static var busy: UInt { 1 << 0 }
  /// Work was queued for the holder after it last looked; its unlocked release fails.
  @inlinable package static var announced: UInt { 1 << 1 }
  /// Nothing claims the gate and no unlocked release succeeds.
  @inlinable package static var closed: UInt { 1 << 2 }

  /// The bits of a gate at one moment.
  @frozen
  @usableFromInline
  package struct State: Equatable, Sendable, CustomStringConvertible {
    /// The raw word.
    @usableFromInline package let bits: UInt

    @inlinable @inline(__always)
    package init(bits: UInt) { self.bits = bits }

    /// No bit set: a claim would succeed.
    @inlinable package var isIdle: Bool { bits == Gate.idle }
    /// Somebody holds the gate.
    @inlinable package var isBusy: Bool { bits & Gate.busy != 0 }
    /// Work was announced to the holder.
    @inlinable package var isAnnounced: Bool { bits & Gate.announced != 0 }
    /// The gate is closed.
    @inlinable package var isClosed: Bool { bits & Gate.closed != 0 }

    @usableFromInline package var description: String {
      bits == 0
        ? "idle"
        : [(isBusy, "busy"), (isAnnounced, "announced"), (isClosed, "closed")]
          .filter(\.0).map(\.1).joined(separator: "+")
    }
  }

  /// The gate's bits now (acquiring).
  @inlinable @inline(__always)
  package var state: State { State(bits: word.load(ordering: .acquiring)) }

  /// Whether nobody holds the gate and it is open, now (acquiring): a cheap check before
  /// ``tryClaim()``.
  @inlinable @inline(__always)
  package var isIdle: Bool { word.load(ordering: .acquiring) == Gate.idle }

  // MARK: Without the lock

  /// Claims an idle gate: idle → ``busy`` (acquiring). Any thread, no lock needed.
  ///
  /// - Returns: Whether the caller is now the holder.
  @inlinable @inline(__always)
  package func tryClaim() -> Bool {
    word.compareExchange(expected: Gate.idle, desired: Gate.busy, ordering: .acquiring).exchanged
  }

  /// The holder releases the gate without the lock: ``busy`` → idle (releasing).
  ///
  /// - Returns: `false` when work was announced or the gate closed meanwhile; the holder
  ///   then takes the lock, and either ``clearAnnouncementLocked()`` and processes the queue,
  ///   or ``releaseLocked()``.
  @inlinable @inline(__always)
  package func tryRelease() -> Bool {
    word.compareExchange(expected: Gate.busy, desired: Gate.idle, ordering: .releasing).exchanged
  }

  /// Closes the gate: sets ``closed`` (acquiring and releasing), keeping the other bits. Any
  /// thread, with or without the lock. A holder keeps the gate until it releases it.
  ///
  /// - Returns: The state before.
  @inlinable
  @discardableResult
  package func close() -> State {
    State(bits: word.bitwiseOr(Gate.closed, ordering: .acquiringAndReleasing).oldValue)
  }

  // MARK: With the lock held

  /// What ``claimOrAnnounceLocked()`` did.
  @frozen
  @usableFromInline
  package enum Announcement: Equatable, Sendable {
    /// The gate was idle and the caller is now its holder.
    case claimed
    /// The holder will see the work (announced now or before).
    case announced
    /// The gate is closed; nothing was changed.
    case closed
  }

  /// After queuing work, with the lock held: claims an idle gate, or announces the work to
  /// the holder, or reports a closed gate.
  @inlinable
  package func claimOrAnnounceLocked() -> Announcement {
    var current = word.load(ordering: .relaxed)
    while true {
      if current & Gate.closed != 0 { return .closed }
      if current & Gate.announced != 0 { return .announced }
      let desired = current == Gate.idle ? Gate.busy : current | Gate.announced
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: desired, ordering: .acquiring)
      if exchanged { return current == Gate.idle ? .claimed : .announced }
      // Raced with an unlocked claim, release or close.
      current = original
    }
  }

  /// With the lock held, in a gate that nobody claims or closes without the lock: claims an
  /// idle gate with a plain store instead of a compare-and-swap (nothing else can change an
  /// idle gate then; an unlocked release only makes one idle).
  ///
  /// - Returns: Whether the caller is now the holder.
  @inlinable @inline(__always)
  package func tryClaimLockedWithoutContention() -> Bool {
    guard word.load(ordering: .acquiring) == Gate.idle else { return false }
    word.store(Gate.busy, ordering: .relaxed)
    return true
  }

  /// The holder, with the lock held, takes in what was announced: clears ``announced``
  /// (relaxed), keeping the gate. Work queued from now on announces itself again.
  @inlinable @inline(__always)
  package func clearAnnouncementLocked() {
    word.bitwiseAnd(~Gate.announced, ordering: .relaxed)
  }

  /// The holder, with the lock held, releases the gate: clears ``busy`` and ``announced``
  /// (releasing), keeping ``closed``. Call only once the queue was found empty (or the engine
  /// stopped) under the lock.
  @inlinable @inline(__always)
  package func releaseLocked() {
    word.bitwiseAnd(Gate.closed, ordering: .releasing)
  }

  /// Opens a closed gate that nobody holds (releasing, publishing what the opener set up),
  /// idle, or held by the caller when `claiming`. Lock held.
  @inlinable
  package func openLocked(claiming: Bool) {
    word.store(claiming ? Gate.busy : Gate.idle, ordering: .releasing)
  }
}
