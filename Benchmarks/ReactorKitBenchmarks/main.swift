import Foundation

let options = Options(arguments: CommandLine.arguments)
print("ReactorKitBenchmarks: median of \(options.runs) runs, each ≥ \(options.minimumSeconds) s")
print("ratio = ns/op of the library ÷ ns/op of the hand-written baseline in this process\n")
runBenchmarks(
  [
    rxSubjectFanout(),
    storeDispatchOneSubscriber(),
    storeDispatchSlices(),
    rxScanDistinct(), rxFlatMapJust(), rxMergeTwo(),
    reactorAction(),
  ], options: options)
