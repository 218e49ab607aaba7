import ExampleSupport
import Foundation
import ReactorKit
import TodosKit

let usage = """
  Usage: Todos

  A todo list in the terminal, built with ReactorKit: one app-wide Store (session,
  settings, todos) and a reactor per feature. Interactive on a terminal (arrow keys,
  space, a/e/d, ? for help); otherwise reads commands from standard input (add TITLE,
  toggle N, edit N TITLE, delete N, filter all|active|done, clear, login NAME, logout,
  help, quit) and prints the screen after each.

  """

var arguments = Arguments()
if arguments.flag("--help") || arguments.flag("-h") {
  print(usage, terminator: "")
  exit(0)
}
do {
  try arguments.finish()
} catch {
  FileHandle.standardError.write(Data("Todos: \(error)\n\n\(usage)".utf8))
  exit(2)
}

// The composition root: one provider (store + services) shared by every reactor.
let provider = ServiceProvider()
let screen = TodosScreen(provider: provider)
TerminalRunner(screen: screen).run()
