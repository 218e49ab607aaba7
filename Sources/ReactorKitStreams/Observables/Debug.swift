import Foundation

extension ObservableType {
  /// Prints every event of every subscription, with a timestamp and `identifier`, and the
  /// moments of subscription and disposal, the way RxSwift's `debug` does:
  /// `2024-01-01 12:00:00.000: name -> Event next(1)`.
  ///
  /// - Parameters:
  ///   - identifier: Printed with each line; defaults to `file:line (function)`.
  ///   - trimOutput: Shortens event descriptions longer than 40 characters.
  /// - Returns: The source's events.
  // Not inlinable: a debugging aid that prints every event.
  public func debug(
    _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file,
    line: UInt = #line, function: String = #function
  ) -> Observable<Element> {
    let name = identifier ?? debugIdentifier(file: file, line: line, function: function)
    return debug(identifier: name, trimOutput: trimOutput) { print($0) }
  }

  /// ``debug(_:trimOutput:file:line:function:)`` writing its lines to `log`.
  func debug(identifier: String, trimOutput: Bool, log: @escaping (String) -> Void)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable { observer in
      let formatter = DateFormatter()
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
      formatter.locale = Locale(identifier: "en_US_POSIX")
      let write = { (content: String) in
        log("\(formatter.string(from: Date())): \(identifier) -> \(content)")
      }
      write("subscribed")
      let sink = Sink(observer)
      sink.extra = Disposables.create { write("isDisposed") }
      return sink.run(source) { event in
        write("Event \(debugText(event, trimmed: trimOutput))")
        sink.forward(event)
      }
    }
  }
}

/// The default identifier of `debug`: `File.swift:line (function)`.
func debugIdentifier(file: String, line: UInt, function: String) -> String {
  "\(file.split(separator: "/").last ?? ""):\(line) (\(function))"
}

/// The event's description, shortened to 40 characters (`first 20...last 20`) when
/// `trimmed` is set.
func debugText<Element>(_ event: Event<Element>, trimmed: Bool) -> String {
  let text = "\(event)"
  let maximum = 40
  guard trimmed, text.count > maximum else { return text }
  return "\(text.prefix(maximum / 2))...\(text.suffix(maximum / 2))"
}
