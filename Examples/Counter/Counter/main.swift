import CounterKit
import ExampleSupport
import Foundation
import ReactorKit
import ReactorKitInspector

let usage = """
  Usage: Counter [--delay SECONDS] [--inspect]

  ReactorKit's classic counter in the terminal. Interactive on a terminal (+/- or the
  arrow keys, q to quit); otherwise reads one command per line from standard input
  (increase, decrease, help, quit) and prints the screen after each.

    --delay SECONDS   how long each change takes (default 0.5)
    --inspect         serve the browser inspector on 127.0.0.1 (its address goes to standard
                      error) and keep running after a script ends, until quit or Ctrl-C

  """

var arguments = Arguments()
if arguments.flag("--help") || arguments.flag("-h") {
  print(usage, terminator: "")
  exit(0)
}
let inspects = arguments.flag("--inspect")
let delay: RxTimeInterval
do {
  delay = try arguments.interval("--delay", default: 0.5)
  try arguments.finish()
} catch {
  FileHandle.standardError.write(Data("Counter: \(error)\n\n\(usage)".utf8))
  exit(2)
}

let reactor = CounterReactor(delay: delay, scheduler: MainScheduler.instance)
// With --inspect, a browser page shows the reactor's actions, mutations and states.
let inspector: Inspector?
if inspects {
  do {
    inspector = try Inspector()
  } catch {
    FileHandle.standardError.write(Data("Counter: \(error)\n".utf8))
    exit(1)
  }
  reactor.install(inspector, source: "counter")
  FileHandle.standardError.write(Data("Inspector: \(inspector!.url)\n".utf8))
} else {
  inspector = nil
}
let screen = CounterScreen()
screen.reactor = reactor
TerminalRunner(screen: screen, keepsRunningAfterInput: inspects).run()
