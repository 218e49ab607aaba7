import Foundation

let options = Options(arguments: CommandLine.arguments)
if let path = options.signalExportPath { runSignalExportCheck(exportingTo: path) }
print("ReactorKitBenchmarks: median of \(options.runs) runs, each ≥ \(options.minimumSeconds) s")
print("ratio = ns/op of the library ÷ ns/op of the hand-written baseline in this process")
print("allocs/op = heap allocations per op (malloc counter), counted in an untimed run")
print("bytes = heap bytes per object as glibc reports them (mallinfo2: chunk sizes)\n")
runBenchmarks(
  [
    reactorSync(),
    reactorCreate(),
    reactorLiveBytes(),
    reactorIdle(),
    reactorActionReads(threads: 1),
    reactorActionReads(threads: 2),
    reactorActionReads(threads: 8),
    storeDispatchOneSubscriber(),
    storeDispatchSlices(perField: 10, targets: [.ratio(0.5)]),
    storeDispatchSlices(
      perField: 100, targets: [.relative(to: "store_dispatch_1000subs_slices", factor: 3)]),
    bridgeSliceToReactor(),
    rxOperatorChain(),
    rxSubjectFanout(),
    storeDispatchContended(),
    observedStoreDispatch(),
    rxScanDistinct(),
    rxFlatMapJust(),
    rxMergeTwo(),
    rxCombineLatest(),
    rxZip(),
    rxObserveOnQueue(),
    rxDelayQueue(),
    rxRange(),
    inspectorIdleDispatch(),
    inspectorDispatchOneClient(),
    reSwiftFacadeDispatch(subscribers: 1),
    reSwiftFacadeDispatch(subscribers: 1000),
    reactiveReSwiftFacadeDispatch(subscribers: 1),
    reactiveReSwiftFacadeDispatch(subscribers: 1000),
  ] + listPluginWorkloads() + scaleWorkloads() + rowWorkloads()
    + loggerWorkloads() + historyWorkloads() + [flightRecorderIdleDispatch()], options: options)
if let filter = options.filter, "inspector_catch_up".contains(filter) {
  runCatchUpMeasurement()
}
