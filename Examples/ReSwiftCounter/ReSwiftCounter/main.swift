import Foundation
import ReSwiftCounterKit
import ReactorKitReSwift

// A ReSwift-style app on ReactorKitReSwift: reads one command per line from standard input
// (increase or +, decrease or -, reset, quit) and prints the screen after each. `--log` writes
// each action and the counter after it to standard error.

let logs = CommandLine.arguments.dropFirst().contains("--log")
let store = makeCounterStore(log: { line in
  if logs { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
})
let screen = CounterScreen()
screen.appear(in: store)
print(screen.text)
while let line = readLine() {
  let command = line.trimmingCharacters(in: .whitespaces)
  if command.isEmpty { continue }
  print("> \(command)")
  switch command {
  case "increase", "+": store.dispatch(CounterActionIncrease())
  case "decrease", "-": store.dispatch(CounterActionDecrease())
  case "reset": store.dispatch(CounterActionReset())
  case "quit", "q":
    screen.disappear(from: store)
    exit(0)
  default:
    print("Unknown command '\(command)'. Commands: increase (+), decrease (-), reset, quit.")
    continue
  }
  print(screen.text)
}
