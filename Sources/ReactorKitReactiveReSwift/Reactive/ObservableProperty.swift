import Dispatch
import ReactorKit

/// A value that sends itself to subscribers each time it is set: the observable a ``Store``
/// publishes its state through, and a stream of actions a store can dispatch.
///
/// ```swift
/// let store = Store(reducer: appReducer, observable: ObservableProperty(AppState()))
/// store.observable.subscribe { state in render(state) }
/// ```
///
/// Thread-safe, and serial per subscriber: each subscriber receives the current value when it
/// subscribes, then every later value in order, never two at once. A value set while a
/// subscriber is being called (from it, or from another thread) is delivered after that call
/// returns. Runs on a `ReactorKit.BehaviorSubject`.
public final class ObservableProperty<ValueType>: ObservablePropertyType, @unchecked Sendable {
  // Safety: the subject, the subscription table and `upstream` synchronise themselves;
  // `queue` is constant.
  /// The reference type ``subscribe(_:)`` returns.
  public typealias DisposableType = ObservablePropertySubscriptionReferenceType
  /// The reference type ``subscribe(_:)`` returns.
  public typealias ObservablePropertySubscriptionReferenceType =
    ObservablePropertySubscriptionReference<ValueType>

  @usableFromInline let subject: BehaviorSubject<ValueType>
  /// The subscriptions, which references end (held strongly by them: a weak reference to the
  /// property would make every retain of it a slow one).
  @usableFromInline let table = SubscriptionTable()
  /// The queue later values are delivered on (``deliveredOn(_:)``).
  @usableFromInline let queue: DispatchQueue?
  /// The subscription to the property this one derives from, ended with it.
  private let upstream = SubscriptionReferenceBag()

  /// Creates a property holding `value`.
  public convenience init(_ value: ValueType) {
    self.init(value, queue: nil)
  }

  private init(_ value: ValueType, queue: DispatchQueue?) {
    subject = BehaviorSubject(value: value)
    self.queue = queue
  }

  deinit {
    table.disposeAll()
  }

  /// The current value. Setting it sends it to every subscriber.
  @inlinable
  public var value: ValueType {
    get {
      do { return try subject.value() } catch { preconditionFailure("the subject never ends") }
    }
    set { subject.on(.next(newValue)) }
  }

  /// Calls `function` with the current value at once, then with every later value.
  ///
  /// - Returns: A reference that ends the subscription. The property keeps the subscription
  ///   until then.
  @inlinable
  @discardableResult
  public func subscribe(_ function: @escaping (ValueType) -> Void) -> DisposableType {
    let key = table.reserveKey()
    let deliver: (ValueType) -> Void
    if let queue {
      var isFirst = true
      deliver = { value in
        if isFirst {
          isFirst = false
          function(value)
        } else {
          let call = UncheckedSendable({ function(value) })
          queue.async { call.value() }
        }
      }
    } else {
      deliver = function
    }
    let disposable = subject.subscribe(onNext: deliver)
    table.insert(disposable, for: key)
    return ObservablePropertySubscriptionReference(key: key, table: table)
  }

  /// A property holding `transform` of this property's value, updated each time it is set.
  ///
  /// This property keeps the new one alive and updated for as long as it lives.
  public func map<U>(_ transform: @escaping (ValueType) -> U) -> ObservableProperty<U> {
    let property = ObservableProperty<U>(transform(value))
    property.upstream += subscribe { property.value = transform($0) }
    return property
  }

  /// A property that takes this property's values, skipping a value `equal` to the one it holds.
  ///
  /// This property keeps the new one alive and updated for as long as it lives.
  public func distinct(_ equal: @escaping (ValueType, ValueType) -> Bool) -> ObservableProperty<
    ValueType
  > {
    let property = ObservableProperty(value)
    property.upstream += subscribe { value in
      if !equal(value, property.value) { property.value = value }
    }
    return property
  }

  /// A property that takes this property's values and calls its subscribers with every value
  /// after the first (which `subscribe` delivers at once) asynchronously on `queue`.
  ///
  /// This property keeps the new one alive and updated for as long as it lives.
  public func deliveredOn(_ queue: DispatchQueue) -> ObservableProperty<ValueType> {
    let property = ObservableProperty(value, queue: queue)
    property.upstream += subscribe { property.value = $0 }
    return property
  }

  /// Ends the subscription under `key`.
  func unsubscribe(key: Int) {
    table.remove(key)
  }

  /// The number of active subscriptions.
  var subscriptionCount: Int {
    table.count
  }
}

extension ObservableProperty where ValueType: Equatable {
  /// A property that takes this property's values, skipping a value equal (`==`) to the one it
  /// holds.
  public func distinct() -> ObservableProperty<ValueType> {
    distinct(==)
  }
}

/// The subscriptions of an ``ObservableProperty`` by key, thread-safe.
@usableFromInline
final class SubscriptionTable: @unchecked Sendable {
  // Safety: `subscriptions` and `nextKey` are guarded by `lock`; disposables are disposed after
  // it is released.
  @usableFromInline let lock = Lock()
  @usableFromInline var subscriptions: [Int: Disposable] = [:]
  @usableFromInline var nextKey = 0

  @inlinable
  init() {}

  /// A key no other subscription of the property has.
  @inlinable
  func reserveKey() -> Int {
    lock.withLock {
      defer { nextKey += 1 }
      return nextKey
    }
  }

  @inlinable
  func insert(_ disposable: Disposable, for key: Int) {
    lock.withLock { subscriptions[key] = disposable }
  }

  /// Ends the subscription under `key`, if it is still there.
  @usableFromInline
  func remove(_ key: Int) {
    let disposable = lock.withLock { subscriptions.removeValue(forKey: key) }
    disposable?.dispose()
  }

  /// Ends every subscription.
  @usableFromInline
  func disposeAll() {
    let all = lock.withLock {
      defer { subscriptions = [:] }
      return Array(subscriptions.values)
    }
    for disposable in all { disposable.dispose() }
  }

  /// The number of subscriptions.
  @usableFromInline
  var count: Int {
    lock.withLock { subscriptions.count }
  }
}
