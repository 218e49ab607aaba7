/// One link of a subscription chain (a subject's observer entry, an operator's ``Sink``, the
/// handle `subscribe(onNext:…)` returns) that learns when the source above it lets go of it.
///
/// A subscription is made of pairs of references: each link holds its upstream subscription
/// (to dispose it) and the upstream holds the link as its observer (to deliver to it). While
/// the source lives it roots the chain; once it is freed, or disposed, without a terminal
/// event, only these pairs keep each other alive. So a link returned as a subscription
/// records the link that holds it, its *holder* (``register(_:asHolderOf:)``, called by the
/// holder when it stores its upstream subscription), and the source tells the link it
/// released (``releaseFromSource()``); the link passes that on to its holder
/// (``upstreamReleased()``), which drops its upstream subscription, and so on down. The pairs
/// come apart and the whole chain is freed, with the closures and what they capture.
///
/// The holder is held strongly (the pair already is a cycle; this adds no lifetime) until the
/// link is released, disposed (``forgetHolder()``) or freed. Nothing here runs per element.
@usableFromInline
package class SubscriptionLink: @unchecked Sendable {
  // Safety: `holderSlot` is only accessed atomically, through `holderBits`; a retained holder
  // is taken out of it by exactly one exchange (release, forget) or by the deinitialiser.

  /// No holder registered yet.
  @usableFromInline static var noHolder: UInt { 0 }
  /// The source released this link: a holder registered later is told at once.
  @usableFromInline static var releasedMark: UInt { 1 }
  /// The link was disposed: a holder registered later is not kept.
  @usableFromInline static var forgottenMark: UInt { 2 }

  /// The storage of ``holderBits``: an ``AtomicSlot``, the first stored property of every link.
  /// So in a subclass, slot 0 is this one and the subclass's own slots start at 1.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case holder }
  @usableFromInline final var holderSlot = AtomicSlot(SubscriptionLink.noHolder)

  /// ``noHolder``, ``releasedMark``, ``forgottenMark``, or the holder's address, retained
  /// (objects are aligned, so an address never equals a mark).
  @inlinable final var holderBits: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.holder, of: self) }

  @inlinable
  init() {}

  deinit {
    let bits = holderBits.load(ordering: .acquiring)
    if bits > Self.forgottenMark, let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<SubscriptionLink>.fromOpaque(pointer).release()
    }
  }

  /// Called on a holder when the link it holds as its upstream subscription was released by
  /// its source: nothing will ever arrive through it. Subclasses drop that subscription and,
  /// when nothing else can feed them, pass the release on with ``releaseFromSource()``.
  @usableFromInline
  func upstreamReleased() {}

  /// Makes `holder` the holder of `upstream` when `upstream` is a link; when the source
  /// already released it, tells `holder` at once.
  @inlinable
  static func register(_ holder: SubscriptionLink, asHolderOf upstream: Disposable) {
    // A metatype check first: a failing value cast (`as?`) costs several hundred
    // instructions on Linux (it looks for bridging conformances), this one a few dozen.
    // Not `upstream as AnyObject`: on Linux that goes through `_bridgeAnythingToObjectiveC`
    // (a dynamic cast, about 2,500 instructions).
    guard let reference = linkReference(upstream) else { return }
    // `upstream` is borrowed for the whole call, so the link lives until it returns.
    Unmanaged<SubscriptionLink>.fromOpaque(reference)._withUnsafeGuaranteedRef {
      $0.setHolder(holder)
    }
    extendLifetime(upstream)
  }

  /// The reference of `upstream` when the type it was stored with is a link, else `nil`. The
  /// existential is opened, so its type is read from it, without looking up the object's
  /// dynamic type (a link is only ever stored as its own class or a subclass: it has no
  /// superclass), and a class instance is its reference.
  @inlinable
  static func linkReference<Upstream: Disposable>(_ upstream: Upstream) -> UnsafeRawPointer? {
    guard Upstream.self is SubscriptionLink.Type else { return nil }
    return unsafeBitCast(upstream, to: UnsafeRawPointer.self)
  }

  @usableFromInline
  final func setHolder(_ holder: SubscriptionLink) {
    let bits = UInt(bitPattern: Unmanaged.passRetained(holder).toOpaque())
    let (exchanged, current) = holderBits.compareExchange(
      expected: Self.noHolder, desired: bits, ordering: .acquiringAndReleasing)
    if exchanged { return }
    Unmanaged<SubscriptionLink>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
    if current == Self.releasedMark { holder.upstreamReleased() }
  }

  /// Records that the source let go of this link and tells the holder, once.
  @usableFromInline
  final func releaseFromSource() {
    let bits = holderBits.exchange(Self.releasedMark, ordering: .acquiringAndReleasing)
    guard bits > Self.forgottenMark, let pointer = UnsafeRawPointer(bitPattern: bits) else {
      return
    }
    Unmanaged<SubscriptionLink>.fromOpaque(pointer).takeRetainedValue().upstreamReleased()
  }

  /// Lets go of the holder without telling it: the link was disposed.
  @inlinable
  final func forgetHolder() {
    guard holderBits.load(ordering: .relaxed) != Self.forgottenMark else { return }
    let bits = holderBits.exchange(Self.forgottenMark, ordering: .acquiringAndReleasing)
    if bits > Self.forgottenMark, let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<SubscriptionLink>.fromOpaque(pointer).release()
    }
  }
}

extension Disposables {
  /// A disposable that wraps `upstream` and runs `onDispose` after disposing it, and that
  /// takes part in the release of dropped subscriptions (see `SubscriptionLink`): for a
  /// source outside this module that adapts a subject's subscription.
  package static func linked(_ upstream: Disposable, onDispose: @escaping () -> Void)
    -> Cancelable
  {
    LinkedDisposable(upstream, onDispose: onDispose)
  }
}

/// A subscription that wraps another one (an upstream subscription) and runs `onDispose`
/// when disposed, for a source outside this module that adapts a subject's subscription
/// (the reactor's action subject). It is a ``SubscriptionLink``: when the source releases the
/// wrapped subscription it drops it and passes the release on to its own holder, so a
/// dropped subscription does not outlive its source.
final class LinkedDisposable: SubscriptionLink, Cancelable, @unchecked Sendable {
  // Safety: `upstream` and `onDispose` are read and cleared under `lock`.
  private let lock = Lock()
  private var upstream: Disposable?
  private var onDispose: (() -> Void)?
  private var disposed = false

  /// Wraps `upstream`, registering as its holder.
  init(_ upstream: Disposable, onDispose: @escaping () -> Void) {
    self.upstream = upstream
    self.onDispose = onDispose
    super.init()
    SubscriptionLink.register(self, asHolderOf: upstream)
  }

  /// Whether ``dispose()`` was called.
  var isDisposed: Bool { lock.withLock { disposed } }

  /// Disposes the upstream subscription (unless the source already released it) and runs
  /// `onDispose`, once.
  func dispose() {
    let (upstream, onDispose) = lock.withLock {
      () -> (Disposable?, (() -> Void)?) in
      guard !disposed else { return (nil, nil) }
      disposed = true
      defer {
        self.upstream = nil
        self.onDispose = nil
      }
      return (self.upstream, self.onDispose)
    }
    forgetHolder()
    upstream?.dispose()
    onDispose?()
  }

  @usableFromInline
  override func upstreamReleased() {
    let upstream = lock.withLock { () -> Disposable? in
      defer { self.upstream = nil }
      return self.upstream
    }
    withExtendedLifetime(upstream) {}
    releaseFromSource()
  }
}

/// The disposable of one subscriber of a source outside this module that holds its subscribers
/// itself (a reactor's engine), and the source's handle on it. Disposing it stops delivery and
/// calls `unregister`; when the source lets go of the subscriber without a terminal event, the
/// source calls ``sourceReleased()``, so the links holding this subscription drop it (see
/// ``SubscriptionLink``).
///
/// It does not hold the observer: the source keeps the observer beside it (checking
/// ``isActive`` before each delivery) and drops it when it lets go, so a disposable kept in a
/// dispose bag never keeps the observer, or what the observer captures (often the bag's
/// owner), once the source is gone.
///
/// It keeps the source alive (a retained reference in ``contextBits``) until it is disposed or
/// freed; ``unregister`` is a capture-free closure made by the source's specialised code. It
/// counts in ``Resources/total`` while it lives.
@usableFromInline
package final class ExternalSubscription: SubscriptionLink, Disposable, @unchecked Sendable {
  // Safety: `contextSlot` is only accessed atomically, through `contextBits`; `unregister` is
  // immutable.
  /// The storage of ``contextBits``; an ``AtomicSlot``, so the first stored property after the
  /// link's (slot 0, see ``SubscriptionLink``): slot 1.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case context = 1 }
  @usableFromInline final var contextSlot = AtomicSlot(UInt(0))
  /// The source, retained (`Unmanaged.passRetained`), until disposed; `0` after, and then
  /// nothing more is delivered.
  @inlinable final var contextBits: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.context, of: self) }
  /// Unregisters this subscriber (second argument) from the source (first argument, whose
  /// retained reference it takes over).
  @usableFromInline let unregister: (UnsafeMutableRawPointer, ExternalSubscription) -> Void

  /// Creates the subscription to the source at `context` (retained; released when disposed
  /// or freed).
  @inlinable
  package init(
    context: UnsafeMutableRawPointer,
    unregister: @escaping (UnsafeMutableRawPointer, ExternalSubscription) -> Void
  ) {
    self.unregister = unregister
    super.init()
    // Through the atomic view once initialised: assigning the slot itself here would cost a
    // dynamic exclusivity check on every subscription.
    contextBits.store(UInt(bitPattern: context), ordering: .relaxed)
    Resources.incrementTotal()
  }

  deinit {
    if let pointer = UnsafeRawPointer(bitPattern: contextBits.load(ordering: .acquiring)) {
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
    Resources.decrementTotal()
  }

  /// Whether the subscriber still receives events (not disposed).
  @inlinable
  package var isActive: Bool { contextBits.load(ordering: .acquiring) != 0 }

  /// Stops delivery and unregisters the subscriber, once.
  @usableFromInline
  package func dispose() {
    let bits = contextBits.exchange(0, ordering: .acquiringAndReleasing)
    guard let pointer = UnsafeMutableRawPointer(bitPattern: bits) else { return }
    forgetHolder()
    unregister(pointer, self)
  }

  /// Called by the source when it lets go of the subscriber without a terminal event: the
  /// links holding this subscription drop it.
  @inlinable
  package func sourceReleased() {
    releaseFromSource()
  }
}
