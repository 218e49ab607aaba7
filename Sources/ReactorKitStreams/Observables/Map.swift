extension ObservableType {
  /// Transforms each element with `transform`; a thrown error ends the sequence with it.
  @inlinable
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
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
        let result: Result
        do {
          result = try transform(element)
        } catch {
          sink.fail(error)
          return
        }
        sink.forwardNext(result)
      }
    }
  }

  /// Transforms each element and drops the `nil` results; a thrown error ends the sequence.
  @inlinable
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?)
    -> Observable<Result>
  {
    sinking { sink in
      { event in
        sink.receive(event) { element in
          if let result = try transform(element) { sink.forwardNext(result) }
        }
      }
    }
  }
}
