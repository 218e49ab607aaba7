import ReactorKit

extension ObservableType {
  /// Runs the sequence only for its effect and emits no mutation of its own; a failure
  /// becomes the mutation `onError` makes of it.
  ///
  /// For service calls that change the store: the reactor sees the change through the store
  /// slices it merges in `transform(mutation:)`, so the call's result is not needed.
  func effect<Mutation>(onError: @escaping (Error) -> Mutation) -> Observable<Mutation> {
    flatMap { _ in Observable<Mutation>.empty() }
      .catch { .just(onError($0)) }
  }
}
