import ReactorKitStreams

/// What one reduction of a store caused: which observers were told about a change and which
/// were evaluated and skipped because their value did not change.
///
/// Made by an ``UpdateExplainer`` (``Store/explainUpdates(capacity:handler:)``), for a test that
/// asserts what a dispatch notifies, or for the inspector's "why" view:
///
/// ```swift
/// let why = store.explainUpdates()
/// store.dispatch(TodoAction.toggle(id: 1))
/// print(why.last!)
/// // reduction 1 (TodoAction.toggle) notified 2 observers: elements of \AppState.todos [1]
/// // (1 subscriber), slice \AppState.todos (1 subscriber); skipped 1: slice \AppState.filter
/// ```
public struct UpdateExplanation: Sendable, Hashable, CustomStringConvertible {
  /// One observer of the store: a kind of subscription and how many subscribers share it.
  public struct Observer: Sendable, Hashable, CustomStringConvertible {
    /// What the subscribers observe.
    public enum Kind: Sendable, Hashable {
      /// ``Store/state``: every new state.
      case state
      /// ``Store/slice(_:)`` (also scopes and observed models of a key path), named by its key
      /// path.
      case slice
      /// One ``Store/select(_:isDuplicate:)`` observable.
      case select
      /// The element subscribers of one list (``Store/slice(_:id:)``, scopes and models by
      /// `id`); ``Observer/ids`` lists the elements whose subscribers were told.
      case elements
    }

    /// What the subscribers observe.
    public let kind: Kind
    /// The key path (for slices and element lists), or `select #n` / `state`.
    public let name: String
    /// How many subscribers share the observer.
    public let subscribers: Int
    /// For ``Kind/elements``: the identifiers of the elements whose subscribers were told, as
    /// text; empty otherwise.
    public let ids: [String]

    public init(kind: Kind, name: String, subscribers: Int, ids: [String] = []) {
      self.kind = kind
      self.name = name
      self.subscribers = subscribers
      self.ids = ids
    }

    public var description: String {
      let shown = ids.isEmpty ? "" : " [\(ids.joined(separator: ", "))]"
      let plural = subscribers == 1 ? "subscriber" : "subscribers"
      return "\(name)\(shown) (\(subscribers) \(plural))"
    }
  }

  /// The reduction's number: the store's count of reductions after it (the first is 1).
  public let reduction: UInt64
  /// The action's type and, for an enum, its case (`TodoAction.toggle`); never its payload.
  public let action: String
  /// The observers told about a change, in the order they were told.
  public let notified: [Observer]
  /// The observers evaluated whose value did not change.
  public let skipped: [Observer]

  public init(reduction: UInt64, action: String, notified: [Observer], skipped: [Observer]) {
    self.reduction = reduction
    self.action = action
    self.notified = notified
    self.skipped = skipped
  }

  /// The number of subscribers told about a change.
  public var notifiedSubscriberCount: Int {
    notified.reduce(0) { $0 + $1.subscribers }
  }

  public var description: String {
    let plural = notified.count == 1 ? "observer" : "observers"
    var text = "reduction \(reduction) (\(action)) notified \(notified.count) \(plural)"
    if !notified.isEmpty {
      text += ": " + notified.map(\.description).joined(separator: ", ")
    }
    if !skipped.isEmpty {
      text += "; skipped \(skipped.count): " + skipped.map(\.name).joined(separator: ", ")
    }
    return text
  }

  /// The name of `action` as an explanation shows it: its type and, for an enum, its case.
  static func name(of action: any Action) -> String {
    let type = String(describing: Swift.type(of: action))
    let mirror = Mirror(reflecting: action)
    guard mirror.displayStyle == .enum else { return type }
    if let label = mirror.children.first?.label { return "\(type).\(label)" }
    return "\(type).\(action)"
  }
}

/// Explains each reduction of a store while it lives (``Store/explainUpdates(capacity:handler:)``):
/// keeps the latest explanations, at most its capacity, and calls its handler with each.
///
/// Explaining is off by default and costs a dispatch nothing while no explainer lives; while
/// one does, each reduction costs about one small allocation per observer. Release the
/// explainer (or call ``stop()``) to turn it off.
public final class UpdateExplainer: Sendable {
  let core: UpdateExplainerCore
  private let detach: @Sendable () -> Void

  init(core: UpdateExplainerCore, detach: @escaping @Sendable () -> Void) {
    self.core = core
    self.detach = detach
  }

  deinit {
    detach()
  }

  /// The latest explanations, oldest first (at most the capacity).
  public var explanations: [UpdateExplanation] {
    core.entries.withLock { Array($0.buffer) }
  }

  /// The latest explanation, if any reduction happened since the explainer started.
  public var last: UpdateExplanation? {
    core.entries.withLock { $0.buffer.last }
  }

  /// Forgets the explanations kept so far.
  public func removeAll() {
    core.entries.withLock { $0.buffer.removeAll() }
  }

  /// Stops explaining (the explanations kept so far stay readable); also done when the
  /// explainer is released.
  public func stop() {
    detach()
  }
}

/// The part of an ``UpdateExplainer`` the store holds while it explains.
@usableFromInline
final class UpdateExplainerCore: Sendable {
  struct Entries {
    var buffer: [UpdateExplanation] = []
    let capacity: Int
  }

  let entries: LockedBox<Entries>
  let handler: (@Sendable (UpdateExplanation) -> Void)?

  init(capacity: Int, handler: (@Sendable (UpdateExplanation) -> Void)?) {
    entries = LockedBox(Entries(capacity: capacity))
    self.handler = handler
  }

  func record(_ explanation: UpdateExplanation) {
    entries.withLock { entries in
      if entries.buffer.count == entries.capacity { entries.buffer.removeFirst() }
      entries.buffer.append(explanation)
    }
    handler?(explanation)
  }
}

extension Store {
  /// Starts explaining each reduction: which observers it notified and which it evaluated and
  /// skipped (see ``UpdateExplanation``).
  ///
  /// Off by default, and free while off. Use it in a test to assert what a dispatch notifies,
  /// or to find out why a view updated:
  ///
  /// ```swift
  /// let why = store.explainUpdates()
  /// store.dispatch(TodoAction.toggle(id: 1))
  /// XCTAssertEqual(why.last?.notified.map(\.name), ["slice \\AppState.todos"])
  /// ```
  ///
  /// - Parameters:
  ///   - capacity: How many explanations to keep (the oldest are dropped); at least 1.
  ///   - handler: Called with each explanation, on the thread that reduced, after every
  ///     observer was told.
  /// - Returns: The explainer; explaining stops when it is released or stopped.
  public func explainUpdates(
    capacity: Int = 100, handler: (@Sendable (UpdateExplanation) -> Void)? = nil
  ) -> UpdateExplainer {
    precondition(capacity > 0, "explainUpdates(capacity:) needs a capacity of at least 1")
    let core = UpdateExplainerCore(capacity: capacity, handler: handler)
    let storeCore = self.core
    storeCore.withTurn { storeCore.registry.explainers.append(core) }
    let detached = LockedBox(false)
    return UpdateExplainer(core: core) { [weak storeCore] in
      guard
        detached.withLock({ done in
          defer { done = true }
          return !done
        })
      else { return }
      guard let storeCore else { return }
      storeCore.withTurn { storeCore.registry.explainers.removeAll { $0 === core } }
    }
  }
}

extension StoreCore {
  /// Tells the state subscribers and the selection groups about the reduction at `version`,
  /// as `reduceAndPublish` does, and records what each did for the live explainers.
  @usableFromInline
  func publishExplaining(_ action: any Action, version: UInt64) {
    let published = storage.published
    var notified: [UpdateExplanation.Observer] = []
    var skipped: [UpdateExplanation.Observer] = []
    let stateSubscribers = registry.stateSubscriptions.count
    forEachSubscription(in: \.stateSubscriptions) { $0.deliver(published.value) }
    if stateSubscribers > 0 {
      notified.append(.init(kind: .state, name: "state", subscribers: stateSubscribers))
    }
    let slots = registry.slots
    var selects = 0
    for slot in slots {
      slot.group.beginExplaining()
      slot.refresh(published, version)
      var (wasNotified, observer) = slot.group.explain(version: version)
      if observer.kind == .select {
        selects += 1
        observer = .init(
          kind: .select, name: "select #\(selects)", subscribers: observer.subscribers)
      }
      if wasNotified {
        notified.append(observer)
      } else {
        skipped.append(observer)
      }
    }
    let explanation = UpdateExplanation(
      reduction: version, action: UpdateExplanation.name(of: action), notified: notified,
      skipped: skipped)
    for explainer in registry.explainers { explainer.record(explanation) }
  }
}
