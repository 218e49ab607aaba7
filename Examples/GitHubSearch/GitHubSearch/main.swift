import ExampleSupport
import Foundation
import GitHubSearchKit
import ReactorKit
import ReactorKitInspector

let usage = """
  Usage: GitHubSearch [--online [--api-url URL]] [--latency SECONDS] [--debounce SECONDS]
                      [--inspect]

  Searches GitHub repositories as you type: debounced queries, the search in flight
  cancelled by a newer one, more results when you scroll past the end. Interactive on a
  terminal; otherwise reads commands from standard input (search TEXT, type TEXT, next,
  show N, clear, help, quit) and prints the screen after each.

    --online            search api.github.com instead of the embedded offline dataset
    --api-url URL       the API to use with --online (default https://api.github.com)
    --latency SECONDS   simulated latency of the offline dataset (default 0.25)
    --debounce SECONDS  pause in typing before a query is searched (default 0.3)
    --inspect           serve the browser inspector on 127.0.0.1 (its address goes to
                        standard error) and keep running after a script ends, until quit
                        or Ctrl-C

  """

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("GitHubSearch: \(message)\n".utf8))
  exit(status)
}

var arguments = Arguments()
if arguments.flag("--help") || arguments.flag("-h") {
  print(usage, terminator: "")
  exit(0)
}
let service: GitHubServiceType
let source: String
let debounce: RxTimeInterval
let inspects: Bool
do {
  inspects = arguments.flag("--inspect")
  let online = arguments.flag("--online")
  let apiURL = try arguments.option("--api-url")
  let latency = try arguments.interval("--latency", default: 0.25)
  debounce = try arguments.interval("--debounce", default: 0.3)
  try arguments.finish()
  if apiURL != nil && !online { throw ArgumentError("--api-url only applies with --online.") }
  if online {
    guard let url = URL(string: apiURL ?? "https://api.github.com"), url.host != nil else {
      throw ArgumentError("--api-url needs an absolute URL, got '\(apiURL ?? "")'.")
    }
    service = GitHubService(baseURL: url)
    source = "online: \(url.host!)"
  } else {
    let repositories = try OfflineGitHubService.bundledRepositories()
    service = OfflineGitHubService(
      repositories: repositories, latency: latency, scheduler: MainScheduler.instance)
    source = "offline dataset of \(repositories.count) repositories"
  }
} catch let error as ArgumentError {
  fail("\(error)\n\n\(usage)", status: 2)
} catch {
  fail("\(error)", status: 1)
}

let reactor = GitHubSearchReactor(
  service: service, debounce: debounce, scheduler: MainScheduler.instance)
// With --inspect, a browser page shows the reactor's actions (typed queries, pages, details),
// its mutations and its states.
let inspector: Inspector?
if inspects {
  do {
    inspector = try Inspector()
  } catch {
    fail("\(error)", status: 1)
  }
  reactor.install(inspector, source: "search")
  FileHandle.standardError.write(Data("Inspector: \(inspector!.url)\n".utf8))
} else {
  inspector = nil
}
let screen = GitHubSearchScreen(source: source)
screen.reactor = reactor
TerminalRunner(screen: screen, keepsRunningAfterInput: inspects).run()
