extension Reactor {
  /// Runs a Swift concurrency operation as the mutation stream of an action.
  ///
  /// Call `send` inside `operation` to emit mutations; the sequence completes when the
  /// operation returns. Disposing the subscription (for example when a `flatMapLatest` or
  /// `take(until:)` in `mutate` moves on, or when the reactor is released) cancels the task,
  /// and `send` ignores mutations from a cancelled task.
  ///
  /// ```swift
  /// func mutate(action: Action) -> Observable<Mutation> {
  ///   switch action {
  ///   case .refresh:
  ///     return run { send in
  ///       send(.setLoading(true))
  ///       let items = try await api.items()
  ///       send(.setItems(items))
  ///       send(.setLoading(false))
  ///     } catch: { error, send in
  ///       send(.setError(error))
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// To wait, sleep on a clock the reactor is given (`let clock: any Clock<Duration>`,
  /// `ContinuousClock()` in the app): `try await clock.sleep(for: .seconds(1))`. Tests pass a
  /// `TestClock` (ReactorKitTesting), whose sleeps end when the test advances its
  /// `TestScheduler`.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` lets the system decide.
  ///   - scheduler: Where the mutations are delivered, in order. Defaults to the main
  ///     scheduler.
  ///   - operation: The work, isolated to the main actor; receives the function that emits
  ///     mutations.
  ///   - handler: Called with an error `operation` throws (other than the task's
  ///     cancellation), to turn it into mutations. Without it, the sequence fails with the
  ///     error (which a reactor ignores in `mutate`, as it ignores every failed action).
  /// - Returns: The mutations sent by `operation`, then completion.
  public func run(
    priority: TaskPriority? = nil,
    scheduler: ImmediateSchedulerType = MainScheduler.instance,
    operation: @escaping @MainActor @Sendable (_ send: Send<Mutation>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<Mutation>) -> Void)? =
      nil
  ) -> Observable<Mutation> {
    Send<Mutation>.task(priority: priority, operation: operation, catch: handler)
      .observe(on: scheduler)
  }
}

/// The function a ``Reactor/run(priority:scheduler:operation:catch:)`` or
/// ``Effect/run(priority:operation:catch:)`` operation calls to emit a mutation or an action.
///
/// Call it like a function: `send(.setLoading(true))`. Mutations sent after the task was
/// cancelled are dropped.
public struct Send<Mutation>: Sendable {
  private let send: @Sendable (Mutation) -> Void

  /// Creates a `Send` that forwards mutations to `send`.
  public init(_ send: @escaping @Sendable (Mutation) -> Void) {
    self.send = send
  }

  /// Emits `mutation`, unless the current task has been cancelled.
  public func callAsFunction(_ mutation: Mutation) {
    guard !Task.isCancelled else { return }
    send(mutation)
  }
}

extension Send {
  /// An observable that runs `operation` in a main-actor task per subscription, emitting what
  /// it sends and completing when it returns; disposing cancels the task. An error other than
  /// the task's cancellation goes to `handler`, or without one ends the sequence. Shared by
  /// ``Reactor/run(priority:scheduler:operation:catch:)`` and
  /// ``Effect/run(priority:operation:catch:)``.
  static func task(
    priority: TaskPriority?,
    operation: @escaping @MainActor @Sendable (_ send: Send<Mutation>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<Mutation>) -> Void)?
  ) -> Observable<Mutation> {
    Observable<Mutation>.create { observer in
      let output = UncheckedSendable(observer)
      let task = Task(priority: priority) { @MainActor in
        let send = Send<Mutation> { output.value.onNext($0) }
        do {
          try await operation(send)
        } catch {
          if error is CancellationError || Task.isCancelled {
            // Cancelled (disposed): nothing is delivered any more.
          } else if let handler {
            handler(error, send)
          } else {
            output.value.onError(error)
            return
          }
        }
        output.value.onCompleted()
      }
      return Disposables.create { task.cancel() }
    }
  }
}
