extension ObservableType {
  /// Passes on the elements for which `predicate` returns `true`; a thrown error ends the
  /// sequence.
  @inlinable
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        // Only the per-element path is inline; terminal events and errors go out of line.
        guard case .next(let element) = event else {
          sink.forwardTerminal(from: event)
          return
        }
        guard sink.isOpen else { return }
        let isIncluded: Bool
        do {
          isIncluded = try predicate(element)
        } catch {
          sink.fail(error)
          return
        }
        if isIncluded { sink.forwardNext(element) }
      }
    }
  }

  /// Drops every element and keeps only the terminal event.
  @inlinable
  public func ignoreElements() -> Observable<Never> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        switch event {
        case .next: break
        case .error(let error): sink.forwardTerminal(.error(error))
        case .completed: sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
