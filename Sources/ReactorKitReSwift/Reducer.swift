/// A function that returns the state after `action`; `state` is `nil` only for the
/// ``ReSwiftInit`` action of a ``Store`` created without an initial state.
///
/// Keep reducers pure. A reducer runs on the thread that is processing, one action at a time.
public typealias Reducer<ReducerStateType> =
  (_ action: Action, _ state: ReducerStateType?) -> ReducerStateType
