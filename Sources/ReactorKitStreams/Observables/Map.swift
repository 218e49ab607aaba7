extension ObservableType {
  /// Transforms each element with `transform`; a thrown error ends the sequence with it.
  @inlinable
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          do {
            sink.forwardNext(try transform(element))
          } catch {
            sink.forwardTerminal(.error(error))
          }
        case .error(let error): sink.forwardTerminal(.error(error))
        case .completed: sink.forwardTerminal(.completed)
        }
      }
    }
  }

  /// Transforms each element and drops the `nil` results; a thrown error ends the sequence.
  @inlinable
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?)
    -> Observable<Result>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          do {
            if let result = try transform(element) { sink.forwardNext(result) }
          } catch {
            sink.forwardTerminal(.error(error))
          }
        case .error(let error): sink.forwardTerminal(.error(error))
        case .completed: sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
