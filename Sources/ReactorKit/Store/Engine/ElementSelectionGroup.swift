import ReactorKitStreams

/// The subscribers of the elements of one ``IdentifiedList`` in the state, by `id`
/// (``Store/slice(_:id:)``), and the version of the list they last saw.
///
/// One group serves every element subscriber of the list, so a reduction that leaves the list
/// alone costs one identity comparison, however many rows are observed; a reduction that
/// changes it costs the changes (``IdentifiedList/forEachChange(from:_:)``) plus one call per
/// subscriber whose element changed. When a change touches many more elements than there are
/// subscribed ids (a sort, a bulk load), the subscribed ids are looked up instead.
///
/// Only the thread that holds the store's turn touches the group.
@usableFromInline
final class ElementSelectionGroup<State, Element: Identifiable & Equatable>: SelectionGroupBase {
  @usableFromInline typealias ID = Element.ID

  @usableFromInline
  struct Storage {
    /// The subscriptions of each id, in subscription order.
    @usableFromInline var subscriptions: [ID: ContiguousArray<StoreSubscription<Element?>>] = [:]
    /// The id each subscription follows, by the subscription's identity.
    @usableFromInline var ids: [ObjectIdentifier: ID] = [:]
    @usableFromInline var last: IdentifiedList<Element>
    /// The store version `last` was read at.
    @usableFromInline var version: UInt64
    /// The ids whose subscribers were told in the current refresh, kept only while an
    /// ``UpdateExplainer`` lives (`nil` otherwise).
    @usableFromInline var explainedIDs: [ID]?

    @inlinable
    init(last: IdentifiedList<Element>, version: UInt64) {
      self.last = last
      self.version = version
    }
  }

  /// Kept in a ``StoreCell``: the store's turn already gives exclusive access.
  @usableFromInline let storage: StoreCell<Storage>
  /// Reads the list from a state (used when a subscriber joins mid-dispatch).
  @usableFromInline let evaluate: (StorePublishedState<State>) -> IdentifiedList<Element>

  @inlinable
  init(
    key: AnyHashable, evaluate: @escaping (StorePublishedState<State>) -> IdentifiedList<Element>,
    last: IdentifiedList<Element>, version: UInt64
  ) {
    self.evaluate = evaluate
    storage = StoreCell(Storage(last: last, version: version))
    super.init(key: key)
  }

  /// The element with `id` for a new subscriber at store `version`.
  @inlinable
  func element(id: ID, for state: StorePublishedState<State>, version: UInt64) -> Element? {
    let list = storage.value.version == version ? storage.value.last : evaluate(state)
    return list[id: id]
  }

  /// Registers `subscription` for the element with `id`.
  @inlinable
  func add(_ subscription: StoreSubscription<Element?>, id: ID) {
    storage.value.subscriptions[id, default: []].append(subscription)
    storage.value.ids[ObjectIdentifier(subscription)] = id
  }

  /// Records `list` as the group's list at `version` and tells the subscribers of each element
  /// that changed since the last one (registered before `version`).
  @inlinable
  func update(_ list: IdentifiedList<Element>, version: UInt64) {
    storage.value.version = version
    if list.isIdentical(to: storage.value.last) { return }
    let old = storage.value.last
    storage.value.last = list
    let subscribedCount = storage.value.subscriptions.count
    guard subscribedCount > 0 else { return }
    let ranges = list.changedRanges(from: old)
    // Walking the changed part costs about a tenth of a lookup by id per element.
    if ranges.old.count + ranges.new.count <= 16 * subscribedCount {
      list.forEachChange(from: old) { id, element in deliver(element, to: id, version: version) }
      return
    }
    for id in Array(storage.value.subscriptions.keys) {
      let element = list[id: id]
      if element != old[id: id] { deliver(element, to: id, version: version) }
    }
  }

  /// Sends `element` to the subscribers of `id` registered before `version`.
  @inlinable
  func deliver(_ element: Element?, to id: ID, version: UInt64) {
    // A copy: a subscriber may subscribe or dispose while it is told.
    guard let subscriptions = storage.value.subscriptions[id] else { return }
    if storage.value.explainedIDs != nil { storage.value.explainedIDs!.append(id) }
    for subscription in subscriptions where subscription.since < version {
      subscription.deliver(element)
    }
  }

  @usableFromInline
  override func removeSubscription(_ subscription: AnyObject) -> Bool {
    if let id = storage.value.ids.removeValue(forKey: ObjectIdentifier(subscription)) {
      storage.value.subscriptions[id]?.removeAll { $0 === subscription }
      if storage.value.subscriptions[id]?.isEmpty == true {
        storage.value.subscriptions[id] = nil
      }
    }
    return storage.value.ids.isEmpty
  }

  @usableFromInline
  override func beginExplaining() {
    storage.value.explainedIDs = []
  }

  @usableFromInline
  override func explain(version: UInt64) -> (
    notified: Bool, observer: UpdateExplanation.Observer
  ) {
    let ids = storage.value.explainedIDs ?? []
    storage.value.explainedIDs = nil
    let subscribers = ids.reduce(0) { $0 + (storage.value.subscriptions[$1]?.count ?? 0) }
    let observer = UpdateExplanation.Observer(
      kind: .elements, name: "elements of \((key.base as! ElementSelectionKey).path)",
      subscribers: ids.isEmpty ? storage.value.ids.count : subscribers,
      ids: ids.map { "\($0)" })
    return (!ids.isEmpty, observer)
  }

  @usableFromInline
  override func completeAll() {
    let subscriptions = storage.value.subscriptions.values.flatMap { $0 }
    storage.value.subscriptions = [:]
    storage.value.ids = [:]
    for subscription in subscriptions { subscription.complete() }
  }
}

/// The key of the element group of the list at `path` (distinct from the key of
/// ``Store/slice(_:)`` of the same path, which follows the whole list).
@usableFromInline
struct ElementSelectionKey: Hashable {
  @usableFromInline let path: AnyKeyPath

  @inlinable
  init(_ path: AnyKeyPath) {
    self.path = path
  }
}

extension StoreCore {
  /// Subscribes `observer` to the element with `id` of the list group `key`, creating the
  /// group if needed.
  @inlinable
  func subscribeElement<Element: Identifiable & Equatable>(
    key: AnyHashable, id: Element.ID, observer: AnyObserver<Element?>,
    evaluate: @escaping (StorePublishedState<State>) -> IdentifiedList<Element>
  ) -> Disposable {
    var result: StoreSubscription<Element?>?
    withTurn {
      let version = self.registry.version
      let state = self.storage.published
      let group: ElementSelectionGroup<State, Element>
      let initial: Element?
      if let existing = self.registry.groups[key] {
        group = existing as! ElementSelectionGroup<State, Element>
        initial = group.element(id: id, for: state, version: version)
      } else {
        let list = evaluate(state)
        initial = list[id: id]
        group = ElementSelectionGroup(key: key, evaluate: evaluate, last: list, version: version)
        self.registry.groups[key] = group
        self.registry.slots.append(
          SelectionSlot(
            group: group,
            refresh: { state, version in
              group.update(evaluate(state), version: version)
            }))
      }
      let subscription = StoreSubscription(
        observer, since: version, list: .selection(key), owner: self)
      group.add(subscription, id: id)
      result = subscription
      subscription.deliver(initial)
    }
    return result!
  }
}
