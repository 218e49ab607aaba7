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
  ///       let items = await api.items()
  ///       send(.setItems(items))
  ///       send(.setLoading(false))
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` lets the system decide.
  ///   - scheduler: Where the mutations are delivered, in order. Defaults to the main
  ///     scheduler.
  ///   - operation: The work, isolated to the main actor; receives the function that emits
  ///     mutations.
  /// - Returns: The mutations sent by `operation`, then completion.
  public func run(
    priority: TaskPriority? = nil,
    scheduler: ImmediateSchedulerType = MainScheduler.instance,
    operation: @escaping @MainActor @Sendable (_ send: Send<Mutation>) async -> Void
  ) -> Observable<Mutation> {
    Observable<Mutation>.create { observer in
      let output = UncheckedSendable(observer)
      let task = Task(priority: priority) {
        await operation(Send { output.value.onNext($0) })
        output.value.onCompleted()
      }
      return Disposables.create { task.cancel() }
    }
    .observe(on: scheduler)
  }
}

/// The function a ``Reactor/run(priority:scheduler:operation:)`` operation calls to emit a
/// mutation.
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
