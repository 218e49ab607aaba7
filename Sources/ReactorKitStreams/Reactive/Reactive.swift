import Foundation

/// The `.rx` namespace: extensions on `Reactive` where `Base` is your type add reactive
/// members without cluttering the type itself.
///
/// ```swift
/// extension Reactive where Base: MessageInputView {
///   var sendButtonTap: ControlEvent<Void> { ControlEvent(events: base.sendTaps) }
///   var isSending: Binder<Bool> { Binder(base) { view, sending in view.isSending = sending } }
/// }
/// inputView.rx.sendButtonTap.map { Reactor.Action.send }.bind(to: reactor.action)
/// ```
///
/// For a class, every writable property is available as a ``Binder`` through dynamic member
/// lookup: `label.rx.text` binds to `label.text` on the main scheduler.
@dynamicMemberLookup
public struct Reactive<Base> {
  /// The extended value.
  public let base: Base

  /// Wraps `base`.
  public init(_ base: Base) {
    self.base = base
  }

  /// A ``Binder`` that assigns each element to the property at `keyPath` of ``base``, held
  /// weakly, on the main scheduler.
  public subscript<Property>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>
  ) -> Binder<Property> where Base: AnyObject {
    Binder(base) { base, value in base[keyPath: keyPath] = value }
  }
}

/// A type that offers the `.rx` namespace; conform your types to it (every `NSObject`
/// already does).
public protocol ReactiveCompatible {
  /// The type extended by `.rx`.
  associatedtype ReactiveBase

  /// The reactive extensions of the type (`Type.rx`).
  static var rx: Reactive<ReactiveBase>.Type { get set }

  /// The reactive extensions of the value (`value.rx`).
  var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
  /// The reactive extensions of the type. The setter does nothing; it exists so that
  /// mutating members of `Reactive` can be used.
  public static var rx: Reactive<Self>.Type {
    get { Reactive<Self>.self }
    set {}
  }

  /// The reactive extensions of the value. The setter does nothing; it exists so that
  /// mutating members of `Reactive` can be used.
  public var rx: Reactive<Self> {
    get { Reactive(self) }
    set {}
  }
}

extension NSObject: ReactiveCompatible {}
