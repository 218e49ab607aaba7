import Foundation

/// Global hooks of the stream core, as in RxSwift.
///
/// An error that reaches a subscription made with `subscribe(onNext:onError:onCompleted:onDisposed:)`
/// (or a trait's `subscribe(onSuccess:…)`) without an error closure goes to
/// ``defaultErrorHandler``. With ``recordCallStackOnError`` set, each such subscription
/// records ``customCaptureSubscriptionCallstack``'s call stack when it is made, and the
/// handler receives it.
public enum Hooks {
  /// Receives an error no subscriber handled, with the call stack recorded at subscription
  /// (empty unless ``recordCallStackOnError`` was set when the subscription was made).
  public typealias DefaultErrorHandler =
    @Sendable (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void

  /// Returns the current call stack, one frame a line.
  public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

  private static let recording = AtomicBox<Bool>(false)

  private static let handlers = LockedBox<
    (DefaultErrorHandler, CustomCaptureSubscriptionCallstack)
  >(
    (defaultHandler, defaultCapture))

  /// Whether subscriptions without an error closure record their call stack, for
  /// ``defaultErrorHandler``. Costs a stack capture per such subscription; `false` by default.
  public static var recordCallStackOnError: Bool {
    get { recording.load(ordering: .relaxed) }
    set { recording.store(newValue, ordering: .relaxed) }
  }

  /// Called with every error that reached a subscription without an error closure. The
  /// default prints the error in debug builds and does nothing in release builds.
  public static var defaultErrorHandler: DefaultErrorHandler {
    get { handlers.withLock { $0.0 } }
    set { handlers.withLock { $0.0 = newValue } }
  }

  /// Captures the call stack recorded with ``recordCallStackOnError``. The default returns
  /// `Thread.callStackSymbols` in debug builds and nothing in release builds.
  public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
    get { handlers.withLock { $0.1 } }
    set { handlers.withLock { $0.1 = newValue } }
  }

  private static let defaultHandler: DefaultErrorHandler = { callStack, error in
    #if DEBUG
      if callStack.isEmpty {
        print("Unhandled error happened: \(error)")
      } else {
        print(
          "Unhandled error happened: \(error)\n subscription called from:\n"
            + callStack.joined(separator: "\n"))
      }
    #endif
  }

  private static let defaultCapture: CustomCaptureSubscriptionCallstack = {
    #if DEBUG
      Thread.callStackSymbols
    #else
      []
    #endif
  }

  /// The call stack to record for a subscription without an error closure.
  static func subscriptionCallStack() -> [String]? {
    guard recordCallStackOnError else { return nil }
    return customCaptureSubscriptionCallstack()
  }

  /// Reports an error that no subscriber handled.
  static func reportUnhandled(_ error: Swift.Error, callStack: [String]?) {
    defaultErrorHandler(callStack ?? [], error)
  }
}
