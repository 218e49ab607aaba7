@_exported import ReactorKit

/// ReactorKit's name of ``ReactorKit/ReactorView``, for ported files.
///
/// A file that says `View` for a reactor view imports this module instead of (or besides)
/// `ReactorKit`. Don't import it in a file that also imports SwiftUI: there `View` would mean
/// two things; say `ReactorView` in such files.
public typealias View = ReactorView

/// ReactorKit's name of ``ReactorKit/DeferredReactorView``, for ported files.
public typealias StoryboardView = DeferredReactorView
