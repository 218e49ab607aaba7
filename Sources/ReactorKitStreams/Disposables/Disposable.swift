/// A resource that can be released, typically a subscription.
///
/// `dispose()` may be called from any thread, any number of times; only the first call has
/// an effect.
public protocol Disposable {
  /// Releases the resource.
  func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
  /// Whether ``Disposable/dispose()`` was called.
  var isDisposed: Bool { get }
}

/// Factory functions for common disposables.
public enum Disposables {
  /// A disposable that does nothing.
  @inlinable
  public static func create() -> Disposable { NopDisposable() }

  /// A disposable that runs `dispose` once, on the first call to `dispose()`.
  @inlinable
  public static func create(with dispose: @escaping () -> Void) -> Cancelable {
    AnonymousDisposable(dispose)
  }

  /// A disposable that disposes both arguments.
  public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
    CompositeDisposable(disposable1, disposable2)
  }

  /// A disposable that disposes all three arguments.
  public static func create(
    _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable
  ) -> Cancelable {
    CompositeDisposable(disposable1, disposable2, disposable3)
  }

  /// A disposable that disposes all the arguments, any number from four on.
  public static func create(
    _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
    _ disposable4: Disposable, _ disposables: Disposable...
  ) -> Cancelable {
    CompositeDisposable(
      disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
  }

  /// A disposable that disposes every element of `disposables`.
  public static func create(_ disposables: [Disposable]) -> Cancelable {
    CompositeDisposable(disposables: disposables)
  }
}

@usableFromInline
struct NopDisposable: Disposable, Sendable {
  @inlinable init() {}
  @inlinable func dispose() {}
}

/// Runs a closure once on the first `dispose()`.
@usableFromInline
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
  // Safety: `action` is read and cleared only by the single caller that wins `disposed`.
  /// The storage of ``disposed``; an ``AtomicSlot``, so the first stored property.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case disposed }
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }
  @usableFromInline var action: (() -> Void)?

  @inlinable
  init(_ action: @escaping () -> Void) {
    self.action = action
  }

  @inlinable
  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  @inlinable
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let action = self.action
    self.action = nil
    action?()
  }
}

/// A disposable whose only state is whether it was disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
  // Safety: the state is atomic.
  /// The storage of `disposed`; an ``AtomicSlot``, so the first stored property.
  enum Slots: Int, AtomicSlotIndex { case disposed }
  private var disposedSlot: AtomicSlot
  private var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }

  /// Creates a disposable, already disposed when `isDisposed` is `true`.
  public init(isDisposed: Bool = false) {
    disposedSlot = AtomicSlot(isDisposed)
  }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Marks the disposable as disposed.
  public func dispose() { disposed.store(true, ordering: .releasing) }
}
