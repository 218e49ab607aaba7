/// A ``ReactorView`` whose binding waits until the view has loaded, such as a view controller
/// whose outlets do not exist before `viewDidLoad()`.
///
/// Assigning ``ReactorView/reactor`` binds at once when ``isViewLoaded`` is `true`, and
/// otherwise stores the reactor. Call ``performBinding()`` when the view has loaded, usually
/// at the end of `viewDidLoad()`; it binds the stored reactor once. `UIViewController` and
/// `NSViewController` already provide ``isViewLoaded``; other types implement it:
///
/// ```swift
/// final class ProfileScreen: DeferredReactorView {
///   var disposeBag = DisposeBag()
///   private(set) var isViewLoaded = false
///
///   func viewDidLoad() {
///     isViewLoaded = true
///     performBinding()
///   }
///
///   func bind(reactor: ProfileReactor) { /* … */ }
/// }
/// ```
///
/// Assigning another reactor before the view has loaded replaces the pending one; only the
/// reactor present at load time is bound.
public protocol DeferredReactorView: ReactorView {
  /// Whether the view has loaded and can be bound.
  var isViewLoaded: Bool { get }
}

/// ReactorKit's former name of ``DeferredReactorView``, which lives in the
/// `ReactorKitCompatibility` module with `View`.
///
/// Declared unavailable here only so that a ported file saying `StoryboardView` gets a fix-it
/// (rename to ``DeferredReactorView``, or import `ReactorKitCompatibility`).
@available(
  *, unavailable, renamed: "DeferredReactorView",
  message: "import ReactorKitCompatibility to keep ReactorKit's name StoryboardView"
)
public typealias StoryboardView = DeferredReactorView

extension DeferredReactorView {
  /// The view's reactor; assigning replaces ``ReactorView/disposeBag`` and binds at once if
  /// the view has loaded, otherwise at ``performBinding()``.
  public var reactor: Reactor? {
    get { ViewStorage.existing(for: self)?.currentReactor as? Reactor }
    set {
      let previous = ViewStorage.assign(newValue, to: self).previous
      performBinding()
      withExtendedLifetime(previous) {}
    }
  }

  /// Binds the current reactor if the view has loaded and the reactor is not bound yet.
  ///
  /// Call it when the view finishes loading (at the end of `viewDidLoad()`); calling it
  /// again, or before a reactor is assigned, does nothing.
  public func performBinding() {
    guard isViewLoaded, let storage = ViewStorage.existing(for: self) else { return }
    guard let reactor = storage.reactorToBind() as? Reactor else { return }
    bind(reactor: reactor)
  }
}
