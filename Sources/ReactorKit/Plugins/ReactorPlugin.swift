/// A tool that plugs into reactors: ``LoggingPlugin`` and the inspector are both, or your own.
///
/// Install it on a reactor in one step with
/// ``Reactor/install(_:source:redacting:)-(ReactorPlugin,_,_)``:
///
/// ```swift
/// reactor.install(logger)
/// reactor.install(inspector, source: "search")
/// ```
///
/// A plugin usually installs a ``ReactorHook`` (``Reactor/addHook(_:)``), which wraps the
/// reactor's `mutate` and `reduce` stages without changing the reactor.
public protocol ReactorPlugin {
  /// Installs the plugin on `reactor`.
  ///
  /// - Parameters:
  ///   - reactor: The reactor.
  ///   - source: The reactor's name in what the plugin writes or shows.
  ///   - redactions: Redactions of parts of the reactor's state, applied to what the plugin
  ///     writes or shows; a plugin that shows no state ignores them.
  /// - Returns: A disposable that removes the plugin from the reactor. A plugin installed
  ///   with a hook is also removed when the reactor is released.
  func install<R: Reactor>(
    on reactor: R, source: String, redacting redactions: [Redaction<R.State>]
  )
    -> Disposable
}

extension Reactor {
  /// Installs `plugin` on this reactor, such as a logger or an inspector.
  ///
  /// - Parameters:
  ///   - plugin: The plugin.
  ///   - source: The reactor's name in what the plugin writes or shows; the reactor's type
  ///     name by default.
  ///   - redactions: Redactions of parts of the reactor's state, applied to what the plugin
  ///     writes or shows.
  /// - Returns: A disposable that removes the plugin. It is also removed when the reactor is
  ///   released, so most apps ignore the result.
  @discardableResult
  public func install(
    _ plugin: some ReactorPlugin, source: String? = nil,
    redacting redactions: [Redaction<State>] = []
  ) -> Disposable {
    plugin.install(on: self, source: source ?? String(describing: Self.self), redacting: redactions)
  }
}

/// An optional plugin installs its plugin when there is one, and nothing otherwise, so a
/// plugin that exists only in some builds fits in a list: `[logger, inspector]` with an
/// `Inspector?`.
extension Optional: ReactorPlugin where Wrapped: ReactorPlugin {
  public func install<R: Reactor>(
    on reactor: R, source: String, redacting redactions: [Redaction<R.State>]
  ) -> Disposable {
    self?.install(on: reactor, source: source, redacting: redactions) ?? Disposables.create()
  }
}

extension Reactor {
  /// Installs each of `plugins` on this reactor, in order (see
  /// ``install(_:source:redacting:)-(ReactorPlugin,_,_)``):
  /// `reactor.install([logger, inspector])`, where an optional plugin that is `nil` installs
  /// nothing.
  ///
  /// - Returns: A disposable that removes them all.
  @discardableResult
  public func install(
    _ plugins: [any ReactorPlugin], source: String? = nil,
    redacting redactions: [Redaction<State>] = []
  ) -> Disposable {
    let source = source ?? String(describing: Self.self)
    let installed = plugins.map { $0.install(on: self, source: source, redacting: redactions) }
    return Disposables.create { for plugin in installed { plugin.dispose() } }
  }
}
