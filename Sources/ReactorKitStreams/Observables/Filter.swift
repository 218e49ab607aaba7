extension ObservableType {
  /// Passes on the elements for which `predicate` returns `true`; a thrown error ends the
  /// sequence.
  @inlinable
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          do {
            if try predicate(element) { sink.forwardNext(element) }
          } catch {
            sink.forwardTerminal(.error(error))
          }
        case .error(let error): sink.forwardTerminal(.error(error))
        case .completed: sink.forwardTerminal(.completed)
        }
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
