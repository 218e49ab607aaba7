/// A view (any class: a view controller, a cell, a SwiftUI model, a test double) that
/// renders a reactor's state and sends it actions.
///
/// Conforming types declare a ``disposeBag`` and implement ``bind(reactor:)``; ReactorKit
/// provides ``reactor``. Assigning a reactor replaces the dispose bag (ending the previous
/// bindings) and calls ``bind(reactor:)``, every time; assigning `nil` only ends the
/// bindings.
///
/// ```swift
/// final class CounterView: ReactorView {
///   var disposeBag = DisposeBag()
///   let label = Label()
///
///   func bind(reactor: CounterReactor) {
///     reactor.state.map(\.value)
///       .bind(onNext: { [label] in label.text = "\($0)" })
///       .disposed(by: disposeBag)
///   }
/// }
/// ```
///
/// The view keeps its reactor alive; both are released with the view.
///
/// Assign ``reactor`` from one thread at a time (usually the main thread): the assignment
/// replaces ``disposeBag``, a stored property of the view. Different views may be bound on
/// different threads, to the same reactors, while those reactors receive actions from any
/// thread.
public protocol ReactorView: AnyObject {
  /// The reactor type the view binds to.
  associatedtype Reactor: ReactorKit.Reactor

  /// The bag of the view's bindings, replaced each time ``reactor`` is assigned.
  var disposeBag: DisposeBag { get set }

  /// The view's reactor. Assigning it calls ``bind(reactor:)`` with a fresh ``disposeBag``.
  var reactor: Reactor? { get set }

  /// Creates the bindings between the view and `reactor`: user input to
  /// ``Reactor/action``, ``Reactor/state`` to the view. Add every subscription to
  /// ``disposeBag``.
  ///
  /// Called each time ``reactor`` is assigned; do not call it directly.
  func bind(reactor: Reactor)
}

/// ReactorKit's former name of ``ReactorView``, which lives in the `ReactorKitCompatibility`
/// module so that a file importing ReactorKit and SwiftUI never meets two `View`s.
///
/// Declared unavailable here only so that a ported file saying `View` gets a fix-it (rename
/// to ``ReactorView``, or import `ReactorKitCompatibility`); an unavailable declaration takes
/// no part in name lookup next to SwiftUI's `View`.
@available(
  *, unavailable, renamed: "ReactorView",
  message: "import ReactorKitCompatibility to keep ReactorKit's name View"
)
public typealias View = ReactorView

extension ReactorView {
  /// The view's reactor; assigning replaces ``disposeBag`` and calls ``bind(reactor:)``.
  public var reactor: Reactor? {
    get { ViewStorage.existing(for: self)?.currentReactor as? Reactor }
    set {
      let (storage, previous) = ViewStorage.assign(newValue, to: self)
      if let reactor = storage.reactorToBind() as? Reactor {
        bind(reactor: reactor)
      }
      withExtendedLifetime(previous) {}
    }
  }
}
