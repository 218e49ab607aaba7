extension ObservableType {
  /// Passes on the elements for which `predicate` returns `true`; a thrown error ends the
  /// sequence.
  @inlinable
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    sinking { sink in
      { event in
        // Only the per-element path is inline; terminal events and errors go out of line.
        sink.receive(event) { element in
          if try predicate(element) { sink.forwardNext(element) }
        }
      }
    }
  }

  /// Drops every element and keeps only the terminal event.
  @inlinable
  public func ignoreElements() -> Observable<Never> {
    sinking { sink in
      { event in sink.forwardTerminal(from: event) }
    }
  }
}
