extension ObservableType where Element: Equatable {
  /// Drops elements equal to the one before them.
  ///
  /// - Returns: The elements that differ from their predecessor.
  @inlinable
  public func distinctUntilChanged() -> Observable<Element> {
    // Written out rather than built on `distinctUntilChanged(_:comparer:)`: `==` is called
    // directly, not through two closures per element.
    sinking { sink in
      let previous = OperatorState<Element?>(nil)
      return { event in
        sink.receive(event) { element in
          if let last = previous.value, last == element { return }
          previous.value = element
          sink.forwardNext(element)
        }
      }
    }
  }
}

extension ObservableType {
  /// Drops elements whose key equals the key of the element before them.
  ///
  /// - Parameter keySelector: Computes the key to compare; a thrown error ends the sequence.
  /// - Returns: The elements whose key differs from their predecessor's.
  @inlinable
  public func distinctUntilChanged<Key: Equatable>(
    _ keySelector: @escaping (Element) throws -> Key
  ) -> Observable<Element> {
    distinctUntilChanged(keySelector, comparer: ==)
  }

  /// Drops elements that `comparer` finds equal to the element before them.
  ///
  /// - Parameter comparer: Returns `true` when two consecutive elements count as equal; a
  ///   thrown error ends the sequence.
  /// - Returns: The elements that differ from their predecessor.
  @inlinable
  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool)
    -> Observable<Element>
  {
    distinctUntilChanged({ $0 }, comparer: comparer)
  }

  /// Drops elements whose value at `keyPath` equals that of the element before them.
  ///
  /// - Parameter keyPath: The property to compare.
  /// - Returns: The elements whose property differs from their predecessor's.
  @inlinable
  public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
    -> Observable<Element>
  {
    distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
  }

  /// Drops elements whose key `comparer` finds equal to the key of the element before them.
  ///
  /// - Parameters:
  ///   - keySelector: Computes the key to compare.
  ///   - comparer: Returns `true` when two keys count as equal.
  /// - Returns: The elements whose key differs from their predecessor's.
  @inlinable
  public func distinctUntilChanged<Key>(
    _ keySelector: @escaping (Element) throws -> Key,
    comparer: @escaping (Key, Key) throws -> Bool
  ) -> Observable<Element> {
    sinking { sink in
      let previous = OperatorState<Key?>(nil)
      return { event in
        // Only the per-element path is inline; terminal events and errors go out of line.
        sink.receive(event) { element in
          let key = try keySelector(element)
          if let last = previous.value, try comparer(last, key) { return }
          previous.value = key
          sink.forwardNext(element)
        }
      }
    }
  }
}
