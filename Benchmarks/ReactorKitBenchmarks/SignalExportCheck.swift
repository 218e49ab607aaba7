import Foundation
import ReactorKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--signal-export-check PATH`: a process that records three dispatches with a
/// `FlightRecorder` exporting to `PATH` on a signal (the default `then`, which ends the
/// process), then sends itself `SIGTERM`. It must end by that signal with the export written;
/// `SignalExportProcessTests` runs it and checks both. Never returns.
func runSignalExportCheck(exportingTo path: String) -> Never {
  var registry = ActionRegistry()
  registry.register(CounterAction.self)
  let flight = FlightRecorder<Counter>(registry: registry)
  let store = Store(reducer: counterReducer(), state: Counter(), plugins: [flight.forStore()])
  for _ in 0..<3 { store.dispatch(CounterAction.increment) }
  flight.exportWhenSignalled(to: URL(fileURLWithPath: path))
  kill(getpid(), SIGTERM)
  // The export and the end of the process happen on the recorder's queue.
  Thread.sleep(forTimeInterval: 10)
  FileHandle.standardError.write(Data("the process outlived its SIGTERM\n".utf8))
  exit(1)
}
