extension DisposeBag {
  /// Collects the disposables listed in a `DisposeBag { … }` or `bag.insert { … }` block.
  ///
  /// ```swift
  /// let bag = DisposeBag {
  ///   relay.bind(to: label.rx.text)
  ///   button.rx.tap.bind(to: reactor.action)
  /// }
  /// ```
  @resultBuilder
  public struct DisposableBuilder {
    /// Collects the block's disposables, in order.
    public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
      disposables
    }
  }

  /// Creates a bag holding the arguments.
  public convenience init(disposing disposables: Disposable...) {
    self.init()
    insert(disposables)
  }

  /// Creates a bag holding `disposables`.
  public convenience init(disposing disposables: [Disposable]) {
    self.init()
    insert(disposables)
  }

  /// Creates a bag holding the disposables listed in `builder`.
  public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
    self.init()
    insert(builder())
  }

  /// Adds every element of `disposables`, in order.
  public func insert(_ disposables: [Disposable]) {
    for disposable in disposables { insert(disposable) }
  }

  /// Adds the disposables listed in `builder`, in order.
  public func insert(@DisposableBuilder builder: () -> [Disposable]) {
    insert(builder())
  }
}
