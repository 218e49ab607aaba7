/// Subscribes to the sequences of a Swift `Sequence` one after another; `concat` and `retry`
/// are built on it.
///
/// With ``Mode/concat`` a completed source moves on to the next one and an error ends the
/// result; with ``Mode/retry`` an error moves on (the last error is kept) and a completion
/// ends the result. When the sources run out, the result completes (`concat`) or fails with
/// the last error (`retry`).
///
/// Sources that finish synchronously inside `subscribe` do not recurse: the loop that
/// subscribed them moves on (a trampoline guarded by ``running``), so a long sequence of
/// synchronous sources uses constant stack.
@usableFromInline
final class SequentialSink<Sources: Sequence>: @unchecked Sendable
where Sources.Element: ObservableConvertibleType {
  // Safety: `running`, `again` and `lastError` are guarded by `lock`; `iterator` is used only by
  // the thread that set `running`, and the lock orders those threads one after another.
  @usableFromInline typealias Element = Sources.Element.Element

  @usableFromInline enum Mode {
    case concat
    case retry
  }

  @usableFromInline let sink: Sink<Element>
  @usableFromInline let mode: Mode
  @usableFromInline let lock = Lock()
  @usableFromInline let current = SerialDisposable()
  @usableFromInline var iterator: Sources.Iterator
  @usableFromInline var running = false
  @usableFromInline var again = false
  @usableFromInline var lastError: Swift.Error?

  @inlinable
  init(_ observer: AnyObserver<Element>, sources: Sources, mode: Mode) {
    sink = Sink(observer)
    iterator = sources.makeIterator()
    self.mode = mode
    sink.extra = current
  }

  /// Subscribes to the first source and returns the subscription's disposable.
  @inlinable
  func run() -> Disposable {
    advance()
    return sink
  }

  @inlinable
  func on(_ event: Event<Element>) {
    switch (event, mode) {
    case (.next(let element), _):
      sink.forwardNext(element)
    case (.completed, .concat):
      advance()
    case (.error(let error), .retry):
      lock.withLock { lastError = error }
      advance()
    case (.error, .concat), (.completed, .retry):
      sink.forwardTerminal(event)
    }
  }

  /// Moves to the next source, or ends the result when there is none.
  @inlinable
  func advance() {
    loop(while: sink.isOpen) {
      guard let next = iterator.next() else {
        let error = lock.withLock { lastError }
        sink.forwardTerminal(error.map { .error($0) } ?? .completed)
        return false
      }
      current.disposable = next.asObservable().subscribe(AnyObserver { self.on($0) })
      return true
    }
  }
}

extension SequentialSink: ReentrantLoop {}

/// A sink that subscribes to one source after another (`concat`, `retry`, `retry(when:)`)
/// where a new round can be asked for from inside the current one (a source that completes or
/// fails during `subscribe`): such a reentrant call is looped, not nested, so the stack does not
/// grow with the number of rounds.
@usableFromInline
protocol ReentrantLoop: AnyObject {
  /// Guards `running` and `again`.
  var lock: Lock { get }
  /// Whether a thread is running the loop.
  var running: Bool { get set }
  /// Whether a call made while the loop ran asked for one more round.
  var again: Bool { get set }
}

extension ReentrantLoop {
  /// Runs `round` while `isOpen` holds, once, and again for as long as calls made meanwhile ask
  /// for more; a call made while another thread (or an outer call) runs the loop only asks.
  /// A `round` that returns `false` ends the loop for good.
  @inlinable
  func loop(while isOpen: @autoclosure () -> Bool, _ round: () -> Bool) {
    lock.lock()
    if running {
      again = true
      lock.unlock()
      return
    }
    running = true
    lock.unlock()
    while isOpen() {
      guard round() else { return }
      lock.lock()
      if !again {
        running = false
        lock.unlock()
        return
      }
      again = false
      lock.unlock()
    }
  }
}
