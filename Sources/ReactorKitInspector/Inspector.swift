import Foundation
import ReactorKit

/// A debugging inspector served to a browser: a live timeline of a store's and reactors'
/// actions, mutations and states, with diffs, time travel, pause, export, import and
/// dispatch, from a small HTTP server inside the app, on the loopback interface only.
///
/// ```swift
/// #if DEBUG
/// let inspector: Inspector? = try Inspector(registry: registry)
/// #else
/// let inspector: Inspector? = nil
/// #endif
/// if let inspector { print("Inspector:", inspector.url) }   // http://127.0.0.1:PORT/#token=…
/// let store = Store(
///   reducer: AppState.reducer, state: AppState(),
///   plugins: [logger.forStore(), inspector?.forStore()])   // nil installs nothing
/// if let inspector { todoListReactor.install(inspector) }
/// ```
///
/// In a store, ``forStore(source:redacting:)`` records the timeline and enables time travel in
/// one step; on a reactor, `reactor.install(inspector)` records its actions and mutations.
///
/// The app never waits for a browser: events go into a bounded ring (``capacity``) and are
/// rendered (by reflection, with secrets redacted) on the server's threads when a page reads
/// them. Every request needs the random token in ``url``; the server binds to 127.0.0.1 only
/// and checks `Host` and `Origin`. It is a debugging tool: leave it out of release builds.
///
/// ## Threading
///
/// The middleware and hooks may run on any thread; the server runs on threads of its own
/// (one accepts, one per open connection). ``close()`` (or releasing the inspector) stops the
/// server; stores and reactors keep working, their middleware and hooks then only record.
public final class Inspector: Sendable {
  /// The port the server listens on, on 127.0.0.1.
  public let port: UInt16
  /// The secret every request must carry: 128 random bits, as 32 hexadecimal digits.
  public let token: String
  /// The most events kept; older ones are dropped, and a page that missed them is told how
  /// many.
  public let capacity: Int
  let core: InspectorCore
  let server: HTTPServer

  /// Starts an inspector.
  ///
  /// - Parameters:
  ///   - port: The port on 127.0.0.1; 0 (the default) lets the system pick a free one.
  ///   - capacity: The most events kept, at least 1; 10,000 by default.
  ///   - registry: The action types the page may dispatch, export and import. Without one,
  ///     those three are unavailable.
  ///   - redaction: The secret field names, redacted in everything shown and exported; the
  ///     app's shared setting, `LogRedaction.shared`, by default.
  ///   - limits: The server's bounds.
  /// - Throws: ``InspectorError/cannotListen(port:reason:)``.
  public init(
    port: UInt16 = 0, capacity: Int = 10_000, registry: ActionRegistry? = nil,
    redaction: LogRedaction = .shared, limits: InspectorLimits = .default
  ) throws(InspectorError) {
    let token = Self.makeToken()
    let core = InspectorCore(
      capacity: capacity, redaction: redaction, registry: registry, limits: limits)
    let page = InspectorPage.bytes
    let routerBox = RouterBox()
    let server = try HTTPServer(
      port: port, limits: limits,
      authenticate: { routerBox.router!.authorization.hasToken($0) },
      handler: { routerBox.router!.handle($0, server: nil) })
    routerBox.router = InspectorRouter(
      core: core, authorization: RequestAuthorization(token: token, port: server.port),
      page: page)
    self.port = server.port
    self.token = token
    self.capacity = core.ring.capacity
    self.core = core
    self.server = server
    server.start()
  }

  deinit {
    server.stop()
    core.shutDown()
  }

  /// The page's address, with the token in the fragment (which browsers don't send to servers
  /// or put in `Referer` headers): `http://127.0.0.1:PORT/#token=…`.
  public var url: URL {
    URL(string: "http://127.0.0.1:\(port)/#token=\(token)")!
  }

  /// Stops the server and closes every connection. Recording continues until the inspector is
  /// released.
  public func close() {
    server.stop()
  }

  // MARK: - Stores

  /// The plugin that shows a store in the inspector: each action the store reduces, with the
  /// states before and after it, as one timeline entry of `source`, and time travel to any
  /// recorded state.
  ///
  /// ```swift
  /// let store = Store(
  ///   reducer: AppState.reducer, state: AppState(), plugins: [inspector.forStore()])
  /// ```
  ///
  /// List it last among the store's plugins, so that it records exactly the actions that
  /// reach the reducer and its time travel wraps every other plugin's reducer (a jump then
  /// bypasses an undo history instead of being recorded by it).
  ///
  /// A jump dispatches an ``InspectorTimeTravel`` action through the store: the plugin's
  /// reducer replaces the state with the recorded one (without calling the store's reducer),
  /// and the store publishes it like any new state, so subscribers and reactors that consume
  /// slices follow. Middleware and side effects don't run again; see the Inspector guide.
  ///
  /// - Parameters:
  ///   - source: The store's name in the timeline.
  ///   - redactions: Redactions of parts of the state, applied to what is shown.
  /// - Returns: The plugin, for `Store(reducer:state:middleware:plugins:)`.
  public func forStore<State>(
    source: String = "store", redacting redactions: [Redaction<State>] = []
  ) -> ForStore<State> {
    ForStore(inspector: self, source: source, redactions: redactions)
  }

  /// An ``Inspector`` installed in a store (``Inspector/forStore(source:redacting:)``).
  public struct ForStore<State>: StorePlugin {
    let inspector: Inspector
    let source: String
    let redactions: [Redaction<State>]

    public func install(in setup: inout StorePluginSetup<State>) {
      let inspector = self.inspector
      let source = self.source
      setup.wrapReducer { base in inspector.timeTravelReducer(base, source: source) }
      setup.addMiddleware(inspector.recordingMiddleware(source: source, redacting: redactions))
    }
  }

  /// A middleware that records each action the store reduces.
  @available(
    *, deprecated,
    message:
      "Install the inspector in the store, which records and time travels in one step: 'Store(reducer:state:plugins: [inspector.forStore(source:)])'."
  )
  public func middleware<State>(
    source: String = "store", redacting redactions: [Redaction<State>] = []
  ) -> Middleware<State> {
    recordingMiddleware(source: source, redacting: redactions)
  }

  /// The middleware that records each action the store reduces, with the states before and
  /// after it, as one timeline entry of `source`.
  func recordingMiddleware<State>(source: String, redacting redactions: [Redaction<State>])
    -> Middleware<State>
  {
    let bridge = StoreSource(name: source, core: core, redactions: redactions)
    core.register(bridge)
    return bridge.middleware()
  }

  /// `base`, able to move the store to an earlier state when the page asks (time travel).
  ///
  /// Without ``middleware(source:redacting:)`` in the same store, the store never appears in
  /// the timeline: its first action then adds a note to the timeline that names the missing
  /// step.
  @available(
    *, deprecated,
    message:
      "Install the inspector in the store, which records and time travels in one step: 'Store(reducer:state:plugins: [inspector.forStore(source:)])'."
  )
  public func reducer<State>(_ base: Reducer<State>, source: String = "store") -> Reducer<State> {
    let wrapped = timeTravelReducer(base, source: source)
    let checked = AtomicBox<Bool>(false)
    let core = self.core
    return Reducer { state, action in
      if !checked.load(ordering: .relaxed) {
        checked.store(true, ordering: .relaxed)
        if core.source(named: source) == nil {
          core.note(
            "\(source): its reducer is wrapped for time travel, but the inspector's middleware "
              + "is not in the store, so the store is not recorded. Install the inspector in the "
              + "store instead: 'plugins: [inspector.forStore(source: \"\(source)\")]'.")
        }
      }
      wrapped.reduce(&state, action)
    }
  }

  /// `base`, handling ``InspectorTimeTravel`` actions by replacing the state with the
  /// recorded one (without calling `base`).
  @inlinable
  func timeTravelReducer<State>(_ base: Reducer<State>, source: String) -> Reducer<State> {
    markJumpable(source)
    // Inlinable so that the check each action pays is specialised in the app's module.
    return Reducer { state, action in
      if InspectorTimeTravel.isTimeTravel(action) {
        InspectorTimeTravel.restore(action, into: &state)
        return
      }
      base.reduce(&state, action)
    }
  }

  @usableFromInline
  func markJumpable(_ source: String) {
    core.markJumpable(source)
  }

  // MARK: - Reactors

  /// Records `reactor`'s actions, and its mutations with the states before and after them.
  @available(
    *, deprecated,
    message:
      "Install the inspector on the reactor: 'reactor.install(inspector, source:redacting:)'."
  )
  @discardableResult
  public func attach<R: Reactor>(
    to reactor: R, source: String? = nil, redacting redactions: [Redaction<R.State>] = []
  ) -> Disposable {
    install(on: reactor, source: source ?? String(describing: R.self), redacting: redactions)
  }

  // MARK: - Token

  static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let words = [generator.next() as UInt64, generator.next() as UInt64]
    return words.map { word in
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}

extension Inspector: ReactorPlugin {
  /// Records `reactor`'s actions, and its mutations with the states before and after them,
  /// as a source of its own, through a `ReactorHook` (`reactor.install(inspector)` calls it).
  ///
  /// - Parameters:
  ///   - reactor: The reactor to watch.
  ///   - source: Its name in the timeline.
  ///   - redactions: Redactions of parts of its state.
  /// - Returns: A disposable that stops recording it. Recording also stops when the reactor
  ///   is released.
  public func install<R: Reactor>(
    on reactor: R, source: String, redacting redactions: [Redaction<R.State>]
  ) -> Disposable {
    let bridge = ReactorSource<R>(
      name: source, core: core, redactions: redactions, initial: reactor.currentState)
    core.register(bridge)
    return reactor.addHook(bridge.hook())
  }
}

/// Lets the server's handler reach the router, which needs the server's port.
final class RouterBox: @unchecked Sendable {
  // Safety: written once in `Inspector.init` before the server starts accepting.
  var router: InspectorRouter?
}
