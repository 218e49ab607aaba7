extension Store {
  /// The value at `path`: the current value first, then each new value when a reduction
  /// changes it.
  ///
  /// Subscribers of the same key path share one evaluation per reduction, however many there
  /// are and however many times `slice` was called; a subscriber is called only when its
  /// value changed (by `==`). A key path made only of stored properties of structs is read
  /// straight from the state's memory.
  ///
  /// ```swift
  /// store.slice(\.session.user)
  ///   .subscribe(onNext: { user in render(user) })
  ///   .disposed(by: disposeBag)
  /// ```
  ///
  /// - Parameter path: The part of the state to observe.
  /// - Returns: An observable that holds the store; it never fails and completes when the
  ///   store is freed.
  /// - Complexity: Each reduction costs one read and one comparison per distinct observed key
  ///   path, plus one call per subscriber whose value changed.
  @inlinable
  public func slice<Value: Equatable>(_ path: KeyPath<State, Value>) -> Observable<Value> {
    let key = AnyHashable(path)
    if let stored = StoredPropertyPath(path) {
      return Observable { observer in
        self.core.subscribeSelection(
          key: key, observer: observer,
          evaluate: { $0[stored: stored] },
          makeRefresh: { group in
            { state, version in
              group.update(state[stored: stored], version: version, isDuplicate: { $0 == $1 })
            }
          })
      }
    }
    return Observable { observer in
      self.core.subscribeSelection(
        key: key, observer: observer,
        evaluate: { $0.value[keyPath: path] },
        makeRefresh: { group in
          { state, version in
            group.update(state.value[keyPath: path], version: version, isDuplicate: { $0 == $1 })
          }
        })
    }
  }

  /// The value `selector` computes from the state: the current value first, then each new
  /// value unless `isDuplicate` says it equals the previous one.
  ///
  /// All subscribers of the returned observable share one evaluation of `selector` per
  /// reduction (call `select` once and share the observable); each call of `select` makes a
  /// new, independent selection.
  ///
  /// - Parameters:
  ///   - selector: Computes the value; called on the processing thread. Keep it cheap and
  ///     pure.
  ///   - isDuplicate: Whether two values are the same, so subscribers need not be told.
  /// - Returns: An observable that holds the store; it never fails and completes when the
  ///   store is freed.
  /// - Complexity: Each reduction costs one call of `selector` and one of `isDuplicate` per
  ///   observable with subscribers, plus one call per subscriber when the value changed.
  @inlinable
  public func select<Value>(
    _ selector: @escaping (State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool
  ) -> Observable<Value> {
    let key = AnyHashable(SelectionKey())
    return Observable { observer in
      self.core.subscribeSelection(
        key: key, observer: observer,
        evaluate: { selector($0.value) },
        makeRefresh: { group in
          { state, version in
            group.update(selector(state.value), version: version, isDuplicate: isDuplicate)
          }
        })
    }
  }

  /// The value `selector` computes from the state: the current value first, then each new
  /// value that differs (by `==`) from the previous one.
  ///
  /// See ``select(_:isDuplicate:)``.
  @inlinable
  public func select<Value: Equatable>(_ selector: @escaping (State) -> Value) -> Observable<
    Value
  > {
    select(selector, isDuplicate: { $0 == $1 })
  }
}

extension Store {
  /// The value at `path`, shared per key path: the same as ``slice(_:)``.
  ///
  /// A key path given to `select(_:)` used to make a new, unshared selection per call;
  /// it now shares one evaluation per reduction with every other subscriber of `path`, as
  /// ``slice(_:)`` does. Call ``slice(_:)``.
  @available(*, deprecated, renamed: "slice(_:)")
  @inlinable
  public func select<Value: Equatable>(_ path: KeyPath<State, Value>) -> Observable<Value> {
    slice(path)
  }
}
