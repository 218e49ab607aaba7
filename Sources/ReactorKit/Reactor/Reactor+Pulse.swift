extension Reactor {
  /// The values assigned to a ``Pulse`` property of the state, one per assignment.
  ///
  /// A subscriber first receives the pulse's current value (from the replayed current
  /// state), then one element each time the property is assigned, even with an equal value.
  /// States in which the property was not assigned emit nothing.
  ///
  /// - Parameter transformToPulse: Selects the pulse, usually a key path such as
  ///   `\.$alertMessage`. A thrown error ends the returned sequence.
  /// - Returns: The pulse's values.
  public func pulse<Result>(_ transformToPulse: @escaping (State) throws -> Pulse<Result>)
    -> Observable<Result>
  {
    let state = self.state
    return .deferred {
      var lastCount: UInt?
      return state.compactMap { state -> Result? in
        let pulse = try transformToPulse(state)
        guard pulse.valueUpdatedCount != lastCount else { return nil }
        lastCount = pulse.valueUpdatedCount
        return .some(pulse.value)
      }
    }
  }
}
