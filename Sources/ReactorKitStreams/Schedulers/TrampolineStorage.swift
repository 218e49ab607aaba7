/// The per-thread queue behind ``CurrentThreadScheduler``, kept under a thread-local key
/// (``ThreadLocalReference``) and released when its thread exits.
///
/// Only its own thread touches it. Callers work on its state through ``TrampolineState``, a
/// view of the state's memory: no reference counting per schedule (the thread keeps the
/// trampoline alive), and no dynamic exclusivity checks (a class's stored `var`s would pay
/// them). The queue's behaviour (`enqueue`, `drain`) is in `CurrentThreadScheduler.swift`.
@safe
@usableFromInline
final class Trampoline {
  @usableFromInline
  struct State {
    @usableFromInline var isRunning = false
    @usableFromInline var queue: [TrampolineItem] = []
    @usableFromInline var head = 0

    @inlinable init() {}
  }

  @usableFromInline let state: UnsafeMutablePointer<State>

  private init() {
    unsafe state = .allocate(capacity: 1)
    unsafe state.initialize(to: State())
  }

  deinit {
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }

  private static let threads = ThreadLocalReference<Trampoline>()

  /// The calling thread's trampoline state, valid until the thread exits.
  @usableFromInline
  static var current: TrampolineState {
    if let trampoline = threads.current {
      return trampoline.withObject { unsafe TrampolineState(address: $0.state) }
    }
    let trampoline = Trampoline()
    threads.set(trampoline)
    return unsafe TrampolineState(address: trampoline.state)
  }
}

/// The calling thread's ``Trampoline`` state: a view of its memory, for the calling thread
/// only and valid until that thread exits (get it from ``Trampoline/current`` where it is
/// used; never store it or hand it to another thread).
@safe
@frozen
@usableFromInline
package struct TrampolineState {
  @usableFromInline let address: UnsafeMutablePointer<Trampoline.State>

  @inlinable @inline(__always)
  init(address: UnsafeMutablePointer<Trampoline.State>) { unsafe self.address = address }

  /// Whether the trampoline runs work now (work scheduled meanwhile is queued).
  @inlinable
  var isRunning: Bool {
    @inline(__always) get { unsafe address.pointee.isRunning }
    @inline(__always) nonmutating set { unsafe address.pointee.isRunning = newValue }
  }

  /// The queued work; items before ``head`` already ran.
  @inlinable
  var queue: [TrampolineItem] {
    @inline(__always) get { unsafe address.pointee.queue }
    @inline(__always) nonmutating _modify { yield unsafe &address.pointee.queue }
  }

  /// The index of the next item to run.
  @inlinable
  var head: Int {
    @inline(__always) get { unsafe address.pointee.head }
    @inline(__always) nonmutating set { unsafe address.pointee.head = newValue }
  }

  /// The whole state, to set a fresh one aside and put the outer one back.
  @inlinable
  var contents: Trampoline.State {
    @inline(__always) get { unsafe address.pointee }
    @inline(__always) nonmutating set { unsafe address.pointee = newValue }
  }

  /// Whether work is queued behind the work running now.
  @inlinable var hasQueuedWork: Bool { head < queue.count }
}
