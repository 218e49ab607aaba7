// The driver of the synchronous sources (`from`, `of`, `range`, `generate`): a loop that pulls
// one element at a time and stops as soon as the sink closes.

extension Sink {
  /// Sends the elements `next` pulls from `state`, then completion, one step of `scheduler`
  /// per element; returns the sink, the subscription's disposable.
  ///
  /// `next` returns `nil` when the sequence is over; an error it throws ends the sequence with
  /// that error. It is not called again once the sink has closed (the subscription disposed,
  /// or a terminal event sent), so a source stops producing as soon as nobody listens.
  ///
  /// On ``CurrentThreadScheduler`` the elements come from one loop on the trampoline: the
  /// first step is queued behind the work running there (the subscribing call, so the
  /// subscription's disposable is in place before the first element), and after each
  /// element the loop goes on at once unless other work is queued, in which case it queues
  /// its next step behind that work, as scheduling each element separately would. Per element
  /// that costs a check of the sink's state and of the trampoline's queue.
  @inlinable
  func produce<State>(
    from state: State, on scheduler: ImmediateSchedulerType,
    _ next: @escaping (inout State) throws -> Element?
  ) -> Disposable {
    if scheduler is CurrentThreadScheduler {
      Trampoline.run { self.produceTrampolined(state, next) }
      return self
    }
    setUpstream(
      scheduler.scheduleRecursive(state) { state, recurse in
        guard self.isOpen else { return }
        var state = state
        let element: Element?
        do {
          element = try next(&state)
        } catch {
          return self.fail(error)
        }
        guard let element else { return self.forwardTerminal(.completed) }
        self.forwardNext(element)
        recurse(state)
      })
    return self
  }

  /// The trampolined loop of ``produce(from:on:_:)``, run by this thread's trampoline.
  @inlinable
  func produceTrampolined<State>(
    _ state: State, _ next: @escaping (inout State) throws -> Element?
  ) {
    let trampoline = Trampoline.current
    var state = state
    while isOpen {
      let element: Element?
      do {
        element = try next(&state)
      } catch {
        return fail(error)
      }
      guard let element else { return forwardTerminal(.completed) }
      forwardNext(element)
      if trampoline.hasQueuedWork {
        let rest = state
        trampoline.enqueue { self.produceTrampolined(rest, next) }
        return
      }
    }
  }
}
