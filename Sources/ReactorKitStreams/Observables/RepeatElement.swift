extension ObservableType {
  /// Emits `element` again and again, one step of `scheduler` each, and never completes.
  ///
  /// Each step checks whether the subscription is still wanted, so an operator that ends the
  /// sequence (`take(_:)`, `take(until:)`, …) stops it: use one with it.
  ///
  /// - Parameters:
  ///   - element: The element to repeat.
  ///   - scheduler: Runs the steps (by default the current-thread trampoline).
  /// - Returns: An endless sequence of `element`.
  @inlinable
  public static func repeatElement(
    _ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    // `generate` checks the subscription before each step; with a condition that always
    // holds and an identity step it repeats the element.
    generate(
      initialState: element, condition: { _ in true }, scheduler: scheduler,
      iterate: { $0 })
  }
}
