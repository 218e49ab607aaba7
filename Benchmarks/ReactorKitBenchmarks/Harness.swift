import Foundation
import MallocCounter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps results alive so the optimiser cannot delete the measured work.
nonisolated(unsafe) var blackHoleSink = 0

@inline(never)
func blackHole(_ value: Int) {
  unsafe blackHoleSink &+= value
}

/// Returns `body` through a call the optimiser cannot see into, so a baseline calls its closures
/// as the library calls its users' closures instead of inlining them into the loop. (Typed
/// overloads: a generic one would wrap each closure in a reabstraction thunk.)
@inline(never)
func opaque(_ body: @escaping (Int) -> Int) -> (Int) -> Int { body }

@inline(never)
func opaque(_ body: @escaping (Int) -> Bool) -> (Int) -> Bool { body }

@inline(never)
func opaque(_ body: @escaping (Int, Int) -> Int) -> (Int, Int) -> Int { body }

@inline(never)
func opaque(_ body: @escaping (Int) -> Void) -> (Int) -> Void { body }

@inline(never)
func opaque(_ body: @escaping (Counter) -> Void) -> (Counter) -> Void { body }

/// Heap allocations made so far, or nil where they are not counted.
func allocationCount() -> Int? {
  malloc_counter_is_active() != 0 ? Int(malloc_counter_allocations()) : nil
}

/// Runs `body` with allocation counting off: timed runs must not pay for the counter.
func withoutCountingAllocations<Result>(_ body: () -> Result) -> Result {
  malloc_counter_set_counting(0)
  defer { malloc_counter_set_counting(1) }
  return body()
}

/// Monotonic nanoseconds.
@inline(__always)
func nanoseconds() -> UInt64 {
  var spec = timespec()
  unsafe clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Bytes of heap in use by this process, or nil where it cannot be read.
func heapBytesInUse() -> Int? {
  #if canImport(Glibc)
    return malloc_counter_is_active() != 0 ? Int(malloc_counter_live_bytes()) : nil
  #elseif canImport(Darwin)
    var statistics = malloc_statistics_t()
    malloc_zone_statistics(nil, &statistics)
    return Int(statistics.size_in_use)
  #else
    return nil
  #endif
}

/// A measured piece of work.
struct Measured {
  /// Prepares the state and returns the function that performs `n` operations on it and
  /// returns a checksum of what they did (the same for the workload and its baseline when
  /// both start fresh and run the same `n`).
  let make: () -> (Int) -> Int
}

/// A goal a workload's measurement must meet.
enum Target {
  /// ns/op of the library ÷ ns/op of the baseline at most this.
  case ratio(Double)
  /// ns/op of the library at most this.
  case nanoseconds(Double)
  /// Heap bytes per unit at most this.
  case bytes(Double)
  /// Heap allocations per operation below this.
  case allocationsPerOp(Double)
  /// ns/op of the library at most `factor` times the ns/op of the workload `name`.
  case relative(to: String, factor: Double)
  /// Percent of one core used while the workload idles at most this.
  case cpuPercent(Double)
  /// ns/op of the library minus ns/op of the baseline at most this (for an add-on measured
  /// against the same work without it).
  case addedNanoseconds(Double)

  var description: String {
    switch self {
    case .ratio(let limit): return "ratio ≤ \(format(limit, digits: 2))x"
    case .nanoseconds(let limit): return "ns/op ≤ \(format(limit, digits: 0))"
    case .bytes(let limit): return "bytes ≤ \(format(limit, digits: 0))"
    case .allocationsPerOp(let limit): return "allocs/op < \(format(limit, digits: 2))"
    case .relative(let name, let factor):
      return "ns/op ≤ \(format(factor, digits: 1)) × \(name)"
    case .cpuPercent(let limit): return "cpu ≤ \(format(limit, digits: 1)) % of a core"
    case .addedNanoseconds(let limit): return "ns/op − baseline ≤ \(format(limit, digits: 0))"
    }
  }
}

/// One benchmark row: a workload and its hand-written baseline.
struct Workload {
  let name: String
  /// The library doing the work; nil for a workload that only reports bytes.
  var subject: Measured?
  /// The same work written by hand: the floor the library is compared with.
  var baseline: Measured?
  /// Heap bytes per unit, measured separately (e.g. per live reactor).
  var bytes: (() -> Double?)?
  /// Percent of one core the process uses while the workload's objects idle, measured
  /// separately.
  var cpuPercent: (() -> Double?)?
  /// Operations of the once-only check that the workload and its baseline did the same work.
  var validationCount = 1_000
  var targets: [Target] = []
}

struct Result: Encodable {
  let workload: String
  let ns_per_op: Double?
  let baseline_ns_per_op: Double?
  let ratio: Double?
  let allocations_per_op: Double?
  let baseline_allocations_per_op: Double?
  let bytes: Double?
  let cpu_percent: Double?
}

struct TargetResult: Encodable {
  let workload: String
  let target: String
  let measured: String
  let met: Bool
}

struct Options {
  var runs = 5
  var minimumSeconds = 0.3
  var jsonPath: String?
  var filter: String?
  var fixedCount: Int?
  var check = false
  var signalExportPath: String?

  init(arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--json": jsonPath = iterator.next()
      case "--runs": runs = Int(iterator.next() ?? "") ?? runs
      case "--min-seconds": minimumSeconds = Double(iterator.next() ?? "") ?? minimumSeconds
      case "--filter": filter = iterator.next()
      case "--count": fixedCount = Int(iterator.next() ?? "")
      case "--check": check = true
      case "--signal-export-check": signalExportPath = iterator.next()
      case "--help", "-h":
        print(
          """
          usage: ReactorKitBenchmarks [--json PATH] [--runs N] [--min-seconds S] [--filter TEXT]
                                      [--count N] [--check] [--signal-export-check PATH]
          Runs each workload and its in-process baseline; prints ns/op, baseline ns/op, ratio,
          heap allocations per op and bytes, then whether each target is met.
          --filter TEXT runs the workloads whose name contains TEXT (is TEXT, for TEXT$).
          --count N     runs each measurement once with exactly N operations (for profilers:
                        the library's work runs inside measuredSubject, the baseline's inside
                        measuredBaseline, for callgrind's --toggle-collect).
          --check       exits with status 1 when a target is not met.
          --signal-export-check PATH
                        only records three dispatches with a FlightRecorder set to export to
                        PATH on a signal, then sends itself SIGTERM: the process must end by
                        that signal, with the export written (a test runs it).
          """)
        exit(0)
      default:
        FileHandle.standardError.write(Data("unknown argument: \(argument)\n".utf8))
        exit(2)
      }
    }
    precondition(runs >= 1, "--runs needs at least 1")
  }
}

/// Which side of a workload ran last (it keeps the two entry points below distinct, so the
/// linker cannot fold them into one symbol).
nonisolated(unsafe) var measuredSide = 0

/// Runs the library's side of a measurement; a separate symbol for profilers.
@inline(never)
func measuredSubject(_ run: (Int) -> Int, _ count: Int) -> Int {
  unsafe measuredSide = 1
  return run(count)
}

/// Runs the baseline's side of a measurement; a separate symbol for profilers.
@inline(never)
func measuredBaseline(_ run: (Int) -> Int, _ count: Int) -> Int {
  unsafe measuredSide = 2
  return run(count)
}

/// The result of measuring one side of a workload.
struct Measurement {
  let nanosecondsPerOp: Double
  let allocationsPerOp: Double?
}

/// Measures `measured`: finds an operation count that runs at least `minimumSeconds`, warms
/// up once, then returns the median ns/op of `runs` runs (allocation counting off) and the
/// allocations per op of one more, untimed run.
func measure(_ measured: Measured, options: Options, isBaseline: Bool) -> Measurement {
  let run = measured.make()
  // Calls the side's own non-inlined entry point, which profilers select by name.
  func wrapper(_ run: (Int) -> Int, _ count: Int) -> Int {
    isBaseline ? measuredBaseline(run, count) : measuredSubject(run, count)
  }
  if let fixed = options.fixedCount {
    // Profiling mode (e.g. under callgrind): one run of exactly `fixed` operations, with
    // allocation counting off so that profiles show only the measured code.
    let elapsed = withoutCountingAllocations {
      let start = nanoseconds()
      blackHole(wrapper(run, fixed))
      return Double(nanoseconds() - start)
    }
    return Measurement(nanosecondsPerOp: elapsed / Double(fixed), allocationsPerOp: nil)
  }
  var count = 64
  var samples: [Double] = []
  samples.reserveCapacity(options.runs)
  withoutCountingAllocations {
    while true {
      let start = nanoseconds()
      blackHole(wrapper(run, count))
      let elapsed = Double(nanoseconds() - start) / 1e9
      if elapsed >= options.minimumSeconds { break }
      let scale = elapsed > 0 ? min(max(options.minimumSeconds / elapsed * 1.2, 2), 100) : 100
      count = Int(Double(count) * scale)
    }
    for _ in 0..<options.runs {
      let start = nanoseconds()
      blackHole(wrapper(run, count))
      samples.append(Double(nanoseconds() - start) / Double(count))
    }
  }
  // Allocations are counted in one more run, untimed.
  let allocationsBefore = allocationCount()
  blackHole(wrapper(run, count))
  let allocations = allocationCount().flatMap { after in
    allocationsBefore.map { Double(after - $0) / Double(count) }
  }
  samples.sort()
  return Measurement(
    nanosecondsPerOp: samples[samples.count / 2], allocationsPerOp: allocations)
}

/// Runs the workload and its baseline once each from fresh state and stops the program when
/// they disagree: a broken pipeline must not look fast.
func validate(_ workload: Workload) {
  guard let subject = workload.subject, let baseline = workload.baseline else { return }
  let count = workload.validationCount
  let ours = subject.make()(count)
  let theirs = baseline.make()(count)
  guard ours == theirs, ours != 0 else {
    FileHandle.standardError.write(
      Data(
        """
        \(workload.name): the workload's checksum \(ours) does not match the baseline's \
        \(theirs) after \(count) operations (or is 0): it did not do the same work.

        """.utf8))
    exit(1)
  }
}

func format(_ value: Double?, digits: Int = 1) -> String {
  guard let value else { return "-" }
  return String(format: "%.\(digits)f", value)
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return left ? text + padding : padding + text
}

/// Whether `name` passes `filter`: contains it, or, for a filter ending in `$`, is it exactly
/// (`scale_list_toggle_100$` leaves out `scale_list_toggle_100000`).
func matches(_ name: String, _ filter: String) -> Bool {
  filter.hasSuffix("$") ? name == filter.dropLast() : name.contains(filter)
}

/// Runs every workload that passes the filter, prints the table and the targets, and writes
/// the JSON report if asked.
func runBenchmarks(_ workloads: [Workload], options: Options) {
  var results: [Result] = []
  print(
    pad("workload", 32, left: true) + pad("ns/op", 11) + pad("baseline ns/op", 16)
      + pad("ratio", 9) + pad("allocs/op", 11) + pad("base allocs", 13) + pad("bytes", 9)
      + pad("cpu %", 8))
  for workload in workloads {
    if let filter = options.filter, !matches(workload.name, filter) { continue }
    validate(workload)
    let ours = workload.subject.map { measure($0, options: options, isBaseline: false) }
    let base = workload.baseline.map {
      measure($0, options: options, isBaseline: true)
    }
    let bytes = workload.bytes?()
    let cpuPercent = workload.cpuPercent?()
    let ratio = ours.flatMap { ours in base.map { ours.nanosecondsPerOp / $0.nanosecondsPerOp } }
    let result = Result(
      workload: workload.name, ns_per_op: ours?.nanosecondsPerOp,
      baseline_ns_per_op: base?.nanosecondsPerOp, ratio: ratio,
      allocations_per_op: ours?.allocationsPerOp,
      baseline_allocations_per_op: base?.allocationsPerOp, bytes: bytes, cpu_percent: cpuPercent)
    results.append(result)
    print(
      pad(workload.name, 32, left: true) + pad(format(result.ns_per_op), 11)
        + pad(format(result.baseline_ns_per_op), 16)
        + pad(format(ratio, digits: 2) + (ratio == nil ? "" : "x"), 9)
        + pad(format(result.allocations_per_op, digits: 2), 11)
        + pad(format(result.baseline_allocations_per_op, digits: 2), 13)
        + pad(format(bytes, digits: 0), 9) + pad(format(cpuPercent, digits: 2), 8))
  }
  let targets = evaluateTargets(workloads, results: results)
  if !targets.isEmpty {
    print("\n" + pad("target", 48, left: true) + pad("measured", 14) + pad("", 6))
    for target in targets {
      print(
        pad("\(target.workload): \(target.target)", 48, left: true) + pad(target.measured, 14)
          + pad(target.met ? "ok" : "MISSED", 8))
    }
  }
  if let path = options.jsonPath {
    struct Report: Encodable {
      let results: [Result]
      let targets: [TargetResult]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try encoder.encode(Report(results: results, targets: targets))
        .write(to: URL(fileURLWithPath: path))
      print("wrote \(path)")
    } catch {
      FileHandle.standardError.write(Data("cannot write \(path): \(error)\n".utf8))
      exit(1)
    }
  }
  blackHole(0)
  if options.check, targets.contains(where: { !$0.met }) { exit(1) }
}

/// Checks the targets of every workload that ran (a relative target needs both workloads).
func evaluateTargets(_ workloads: [Workload], results: [Result]) -> [TargetResult] {
  let byName = Dictionary(results.map { ($0.workload, $0) }, uniquingKeysWith: { $1 })
  var evaluated: [TargetResult] = []
  for workload in workloads {
    guard let result = byName[workload.name] else { continue }
    for target in workload.targets {
      let measured: Double?
      let limit: Double
      let unit: String
      switch target {
      case .ratio(let value):
        (measured, limit, unit) = (result.ratio, value, "x")
      case .nanoseconds(let value):
        (measured, limit, unit) = (result.ns_per_op, value, " ns")
      case .bytes(let value):
        (measured, limit, unit) = (result.bytes, value, " B")
      case .allocationsPerOp(let value):
        (measured, limit, unit) = (result.allocations_per_op, value, "")
      case .relative(let name, let factor):
        guard let other = byName[name]?.ns_per_op else { continue }
        (measured, limit, unit) = (result.ns_per_op.map { $0 / other }, factor, "x")
      case .cpuPercent(let value):
        (measured, limit, unit) = (result.cpu_percent, value, " %")
      case .addedNanoseconds(let value):
        guard let ours = result.ns_per_op, let base = result.baseline_ns_per_op else { continue }
        (measured, limit, unit) = (ours - base, value, " ns")
      }
      guard let measured else { continue }
      let met: Bool
      if case .allocationsPerOp = target { met = measured < limit } else { met = measured <= limit }
      evaluated.append(
        TargetResult(
          workload: workload.name, target: target.description,
          measured: format(measured, digits: 2) + unit, met: met))
    }
  }
  return evaluated
}

/// A running sum that subscriber closures add to, in plain memory: adding costs a few
/// instructions (a captured `var` would pay a dynamic exclusivity check), so workloads with
/// many subscribers measure the library rather than the subscribers. Both sides of a workload
/// that use it use it the same way.
@safe
final class Tally {
  let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() { unsafe pointer.initialize(to: 0) }

  deinit { unsafe pointer.deallocate() }

  var value: Int { unsafe pointer.pointee }

  @inline(__always) func add(_ amount: Int) { unsafe pointer.pointee &+= amount }
}

/// A pthread mutex for the hand-written baselines.
@safe
final class BaselineLock: @unchecked Sendable {
  // Safety: the mutex is the synchronisation primitive.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    unsafe mutex = .allocate(capacity: 1)
    unsafe mutex.initialize(to: pthread_mutex_t())
    unsafe pthread_mutex_init(mutex, nil)
  }

  deinit {
    unsafe pthread_mutex_destroy(mutex)
    unsafe mutex.deallocate()
  }

  @inline(__always) func lock() { unsafe pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { unsafe pthread_mutex_unlock(mutex) }
}

/// Runs `body(thread, share)` on `threads` new threads at once, splitting `count` operations
/// between them, and returns when all are done.
func runOnThreads(_ threads: Int, count: Int, _ body: @escaping @Sendable (Int, Int) -> Void) {
  let started = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for thread in 0..<threads {
    let share = count / threads + (thread < count % threads ? 1 : 0)
    done.enter()
    Thread {
      started.signal()
      go.wait()
      body(thread, share)
      done.leave()
    }.start()
  }
  for _ in 0..<threads { started.wait() }
  for _ in 0..<threads { go.signal() }
  done.wait()
}

/// CPU seconds (user and system, every thread) this process has used so far.
func processCPUSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
    unsafe getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Sleeps the calling thread for `seconds`.
func sleep(seconds: Double) {
  Thread.sleep(forTimeInterval: seconds)
}
