/// The disposable returned by `subscribe(onNext:onError:onCompleted:onDisposed:)`, and the
/// subscription's state: whether it is open, the upstream subscription and the closures that
/// run when it ends.
///
/// Ownership runs one way: the subscription's ``SubscribeSink`` (what the upstream calls)
/// holds its handle strongly; the handle never references the sink. So
/// - the handle stays alive while the subscription runs, even when its holder drops it, and
///   a terminal event reaches it without a weak reference;
/// - once the subscription ended (terminal event or ``dispose()``) the handle has released
///   the upstream subscription and ``SubscriptionClosures``, and the sink, with `onNext`, is
///   held only by the upstream, which lets go of it when disposed. A finished subscription
///   kept in a dispose bag or a property therefore no longer keeps its closures, and what
///   they capture, alive: the cycle `owner → bag → subscription → closure → owner` ends with
///   the subscription, as in RxSwift;
/// - when the source lets go of the subscription without a terminal event (a subject freed
///   or disposed), the handle, a ``SubscriptionLink``, drops the upstream subscription without
///   ending: the sink and `onNext` are freed, as in RxSwift, and neither `onDisposed` nor the
///   other closures run until the handle is disposed.
@usableFromInline
final class SubscriptionHandle: SubscriptionLink, Cancelable, @unchecked Sendable {
  // Safety: `state` is atomic. `upstream` is written by `setUpstream` before it publishes
  // `assigned` and then read and cleared only by whichever of `setUpstream` and the disposal
  // sets the second of `assigned` and `disposed` (as in SingleAssignmentDisposable), or, once
  // `assigned` is set, by whichever of the disposal and the release sets `upstreamTaken`.
  // `closures` is immutable until it is cleared by the last of its users: the terminal path,
  // once it set `closed`, and the winner of `disposed`. When both run, each sets its `…Done`
  // bit when finished and whoever sets the second clears it.

  /// The storage of ``state``, `closures` and `upstream`: an ``AtomicSlot`` and two
  /// ``ExclusiveSlot``s, so the first stored properties after the link's (slot 0, see
  /// ``SubscriptionLink``): slots 1, 2 and 3 (`upstream`, several words, last).
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case state = 1
    case closures
    case upstream
  }
  @usableFromInline var stateSlot = AtomicSlot(0)
  private var closuresSlot = ExclusiveSlot<SubscriptionClosures?>(nil)
  private var upstreamSlot = ExclusiveSlot<Disposable?>(nil)

  /// A terminal event was accepted; the sink delivers nothing more.
  @usableFromInline static var closed: Int { 1 }
  /// Disposed, by the subscriber or after a terminal event; nothing more is delivered.
  @usableFromInline static var disposed: Int { 2 }
  /// `upstream` was assigned.
  private static var assigned: Int { 4 }
  /// The terminal path finished with `closures` after another thread won `disposed`.
  private static var terminalDone: Int { 8 }
  /// The winner of `disposed` finished with `closures` while the terminal path ran.
  private static var disposalDone: Int { 16 }
  /// The assigned `upstream` was taken, by the disposal or because its source released it.
  private static var upstreamTaken: Int { 32 }

  @inlinable var state: UnsafeAtomic<Int> { UnsafeAtomic(Slots.state, of: self) }
  /// The upstream subscription, once assigned (see the safety note above).
  private var upstream: ExclusiveSlotView<Disposable?> {
    ExclusiveSlotView(Slots.upstream, of: self)
  }
  /// `onError`, `onCompleted` and `onDisposed`, when any was given; `nil` otherwise, so a
  /// subscription with only `onNext` does not pay for them.
  private var closures: ExclusiveSlotView<SubscriptionClosures?> {
    ExclusiveSlotView(Slots.closures, of: self)
  }

  @usableFromInline
  init(
    onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?,
    onDisposed: (() -> Void)?
  ) {
    let callStack = onError == nil ? Hooks.subscriptionCallStack() : nil
    if onError != nil || onCompleted != nil || onDisposed != nil || callStack != nil {
      closuresSlot = ExclusiveSlot(
        SubscriptionClosures(
          onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
          callStack: callStack))
    }
  }

  /// Whether elements may still be delivered: one atomic load, on the per-element path.
  @inlinable
  var isOpen: Bool {
    state.load(ordering: .acquiring) & (Self.closed | Self.disposed) == 0
  }

  /// Whether the subscription ended, by a terminal event or ``dispose()``.
  @usableFromInline
  var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposed != 0 }

  /// Stores the upstream subscription; disposes it at once when the subscription already
  /// ended (a terminal event during `subscribe`, or a disposal from another thread).
  @usableFromInline
  func setUpstream(_ disposable: Disposable) {
    _ = assignUpstream(
      disposable, to: upstream, state: state, assigned: Self.assigned, disposed: Self.disposed)
  }

  /// The source let go of the upstream subscription: drops it, so the sink and `onNext` are
  /// freed, without ending the subscription (see the type's comment).
  @usableFromInline
  override func upstreamReleased() {
    guard let upstream = takeUpstream() else { return }
    withExtendedLifetime(upstream) {}
  }

  /// Takes the assigned upstream subscription, unless the disposal or the release already
  /// took it.
  private func takeUpstream() -> Disposable? {
    let previous = state.bitwiseOr(Self.upstreamTaken, ordering: .acquiringAndReleasing).oldValue
    guard previous & Self.upstreamTaken == 0 else { return nil }
    return upstream.take()
  }

  /// Ends the subscription with `error`, or with completion when `nil`, unless it already
  /// ended: calls `onError` or `onCompleted`, then disposes. Called by the sink, serially.
  @usableFromInline
  func terminate(_ error: Swift.Error?) {
    let previous = state.bitwiseOr(Self.closed, ordering: .acquiringAndReleasing).oldValue
    guard previous & (Self.closed | Self.disposed) == 0 else { return }
    if let error {
      if let onError = closures.value?.onError {
        onError(error)
      } else {
        Hooks.reportUnhandled(error, callStack: closures.value?.callStack)
      }
    } else {
      closures.value?.onCompleted?()
    }
    end(afterTerminal: true)
  }

  /// Stops delivery, disposes the upstream subscription and calls `onDisposed`, once.
  @usableFromInline
  func dispose() {
    end(afterTerminal: false)
  }

  /// The disposal, from ``dispose()`` or, with `afterTerminal`, from the terminal path once
  /// it called `onError` or `onCompleted`.
  private func end(afterTerminal: Bool) {
    let previous = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
    if previous & Self.disposed == 0 {
      if previous & Self.assigned != 0 { takeUpstream()?.dispose() }
      closures.value?.onDisposed?()
      // Alone with `closures` unless another thread is on the terminal path.
      if afterTerminal || previous & Self.closed == 0 {
        closures.value = nil
        return
      }
      let before = state.bitwiseOr(Self.disposalDone, ordering: .acquiringAndReleasing).oldValue
      if before & Self.terminalDone != 0 { closures.value = nil }
    } else if afterTerminal {
      // A disposal won while `onError` or `onCompleted` ran (it saw `closed`).
      let before = state.bitwiseOr(Self.terminalDone, ordering: .acquiringAndReleasing).oldValue
      if before & Self.disposalDone != 0 { closures.value = nil }
    }
  }
}

/// The closures of a subscription other than `onNext`, boxed so that the common `onNext`-only
/// subscription stores one optional reference instead of three optional closures.
final class SubscriptionClosures {
  let onError: ((Swift.Error) -> Void)?
  let onCompleted: (() -> Void)?
  let onDisposed: (() -> Void)?
  /// Where the subscription was made, for ``Hooks/defaultErrorHandler``, when
  /// ``Hooks/recordCallStackOnError`` was set and there is no `onError`.
  let callStack: [String]?

  init(
    onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?,
    onDisposed: (() -> Void)?, callStack: [String]?
  ) {
    self.onError = onError
    self.onCompleted = onCompleted
    self.onDisposed = onDisposed
    self.callStack = callStack
  }
}
