import CounterKit
import ExampleSupport
import Foundation
import ReactorKit

let usage = """
  Usage: Counter [--delay SECONDS]

  ReactorKit's classic counter in the terminal. Interactive on a terminal (+/- or the
  arrow keys, q to quit); otherwise reads one command per line from standard input
  (increase, decrease, help, quit) and prints the screen after each.

    --delay SECONDS   how long each change takes (default 0.5)

  """

var arguments = Arguments()
if arguments.flag("--help") || arguments.flag("-h") {
  print(usage, terminator: "")
  exit(0)
}
let delay: RxTimeInterval
do {
  delay = try arguments.interval("--delay", default: 0.5)
  try arguments.finish()
} catch {
  FileHandle.standardError.write(Data("Counter: \(error)\n\n\(usage)".utf8))
  exit(2)
}

let reactor = CounterReactor(delay: delay, scheduler: MainScheduler.instance)
let screen = CounterScreen()
screen.reactor = reactor
TerminalRunner(screen: screen).run()
