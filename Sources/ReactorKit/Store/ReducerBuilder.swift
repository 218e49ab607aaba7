/// Builds a ``Reducer`` from the reducers listed in a closure, run one after the other in
/// order, as `Reducer.combine(_:)` does.
///
/// ```swift
/// let appReducer = Reducer<AppState>.combine {
///   counterReducer.lift(\.counter)
///   sessionReducer.lift(\.session)
///   if isDebugMenuEnabled {
///     debugReducer.lift(\.debug)
///   }
/// }
/// ```
///
/// Besides listing reducers, the closure may use `if`, `if`/`else`, `switch` and `for` loops
/// (each reducer a loop iteration yields is run in order). The closure runs once, when the
/// reducer is built: the conditions choose which reducers are combined, not what happens per
/// action.
@resultBuilder
public enum ReducerBuilder<State> {
  /// A reducer of `State`, listed in the closure.
  @inlinable
  public static func buildExpression(_ reducer: Reducer<State>) -> [Reducer<State>] {
    [reducer]
  }

  /// The reducers of a block, in order.
  @inlinable
  public static func buildBlock(_ components: [Reducer<State>]...) -> [Reducer<State>] {
    components.flatMap { $0 }
  }

  /// The reducers of an `if` without `else`: none when the condition is false.
  @inlinable
  public static func buildOptional(_ component: [Reducer<State>]?) -> [Reducer<State>] {
    component ?? []
  }

  /// The reducers of the first branch of an `if`/`else` or a `switch`.
  @inlinable
  public static func buildEither(first component: [Reducer<State>]) -> [Reducer<State>] {
    component
  }

  /// The reducers of the second branch of an `if`/`else` or a `switch`.
  @inlinable
  public static func buildEither(second component: [Reducer<State>]) -> [Reducer<State>] {
    component
  }

  /// The reducers of every iteration of a `for` loop, in order.
  @inlinable
  public static func buildArray(_ components: [[Reducer<State>]]) -> [Reducer<State>] {
    components.flatMap { $0 }
  }

  /// The reducers of an `if #available` block.
  @inlinable
  public static func buildLimitedAvailability(_ component: [Reducer<State>]) -> [Reducer<
    State
  >] {
    component
  }

  /// The combined reducer.
  @inlinable
  public static func buildFinalResult(_ component: [Reducer<State>]) -> Reducer<State> {
    Reducer.combine(component)
  }
}

extension Reducer {
  /// A reducer that runs the reducers listed in `build` one after the other on the same
  /// state, in order.
  ///
  /// ```swift
  /// let appReducer = Reducer<AppState>.combine {
  ///   counterReducer.lift(\.counter)
  ///   todosReducer.forEach(\.todos)
  /// }
  /// ```
  ///
  /// - Parameter build: Lists the reducers (see ``ReducerBuilder``); called once, here.
  /// - Returns: The combined reducer.
  /// - Complexity: Each action costs one call per reducer.
  @inlinable
  public static func combine(@ReducerBuilder<State> _ build: () -> Reducer<State>)
    -> Reducer<State>
  {
    build()
  }
}
