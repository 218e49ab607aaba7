extension ObservableType {
  /// Makes a resource for each subscription, subscribes to the sequence built from it, and
  /// disposes the resource when the subscription ends (after the sequence's own
  /// subscription).
  ///
  /// An error thrown by either factory fails the sequence (a resource already made is still
  /// disposed).
  ///
  /// - Parameters:
  ///   - resourceFactory: Makes the subscription's resource.
  ///   - observableFactory: Makes the sequence that uses the resource.
  /// - Returns: The sequence's events.
  @inlinable
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    observableFactory: @escaping (Resource) throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable { observer in
      let sink = Sink(observer)
      let source: Observable<Element>
      do {
        let resource = try resourceFactory()
        sink.extra = resource
        source = try observableFactory(resource)
      } catch {
        source = .error(error)
      }
      return sink.run(source) { sink.forward($0) }
    }
  }
}
