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
  blackHoleSink &+= value
}

/// Heap allocations made so far, or nil where they are not counted.
func allocationCount() -> Int? {
  malloc_counter_is_active() != 0 ? Int(malloc_counter_allocations()) : nil
}

/// Monotonic nanoseconds.
@inline(__always)
func nanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
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

/// A measured piece of work: `run(n)` performs `n` operations.
struct Measured {
  /// Prepares the state and returns the function that performs `n` operations on it.
  let make: () -> (Int) -> Void
}

/// One benchmark row: a workload and its hand-written baseline.
struct Workload {
  let name: String
  let subject: Measured
  let baseline: Measured
  /// Heap bytes per unit, measured separately (e.g. per live reactor).
  var bytes: (() -> Double?)? = nil
  /// A workload that only reports bytes (no timing of its own).
  var bytesOnly = false
}

struct Result: Encodable {
  let workload: String
  let ns_per_op: Double?
  let baseline_ns_per_op: Double?
  let ratio: Double?
  let bytes: Double?
}

struct Options {
  var runs = 5
  var minimumSeconds = 0.3
  var jsonPath: String?
  var filter: String?
  var fixedCount: Int?

  init(arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--json": jsonPath = iterator.next()
      case "--runs": runs = Int(iterator.next() ?? "") ?? runs
      case "--min-seconds": minimumSeconds = Double(iterator.next() ?? "") ?? minimumSeconds
      case "--filter": filter = iterator.next()
      case "--count": fixedCount = Int(iterator.next() ?? "")
      case "--help", "-h":
        print(
          """
          usage: ReactorKitBenchmarks [--json PATH] [--runs N] [--min-seconds S] [--filter TEXT]
                                      [--count N]
          Runs each workload and its in-process baseline; prints ns/op, baseline ns/op, ratio.
          --count N runs each measurement once with exactly N operations (for profilers).
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

/// Measures `measured`: finds an operation count that runs at least `minimumSeconds`, warms
/// up once, then returns the median ns/op of `runs` runs.
func measure(_ measured: Measured, options: Options) -> Double {
  let run = measured.make()
  if let fixed = options.fixedCount {
    // Profiling mode (e.g. under callgrind): one run of exactly `fixed` operations.
    let start = nanoseconds()
    run(fixed)
    return Double(nanoseconds() - start) / Double(fixed)
  }
  var count = 64
  while true {
    let start = nanoseconds()
    run(count)
    let elapsed = Double(nanoseconds() - start) / 1e9
    if elapsed >= options.minimumSeconds { break }
    let scale = elapsed > 0 ? min(max(options.minimumSeconds / elapsed * 1.2, 2), 100) : 100
    count = Int(Double(count) * scale)
  }
  var samples: [Double] = []
  for _ in 0..<options.runs {
    let start = nanoseconds()
    run(count)
    samples.append(Double(nanoseconds() - start) / Double(count))
  }
  samples.sort()
  return samples[samples.count / 2]
}

func format(_ value: Double?, digits: Int = 1) -> String {
  guard let value else { return "-" }
  return String(format: "%.\(digits)f", value)
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return left ? text + padding : padding + text
}

func runBenchmarks(_ workloads: [Workload], options: Options) {
  var results: [Result] = []
  print(
    pad("workload", 34, left: true) + pad("ns/op", 12) + pad("baseline ns/op", 16)
      + pad("ratio", 9) + pad("bytes", 10))
  for workload in workloads {
    if let filter = options.filter, !workload.name.contains(filter) { continue }
    var ours: Double?
    var base: Double?
    if !workload.bytesOnly {
      ours = measure(workload.subject, options: options)
      base = measure(workload.baseline, options: options)
    }
    let bytes = workload.bytes?()
    let ratio = ours.flatMap { ours in base.map { ours / $0 } }
    let result = Result(
      workload: workload.name, ns_per_op: ours, baseline_ns_per_op: base, ratio: ratio,
      bytes: bytes)
    results.append(result)
    print(
      pad(workload.name, 34, left: true) + pad(format(ours), 12) + pad(format(base), 16)
        + pad(format(ratio, digits: 2) + (ratio == nil ? "" : "x"), 9)
        + pad(format(bytes, digits: 0), 10))
  }
  if let path = options.jsonPath {
    struct Report: Encodable { let results: [Result] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try encoder.encode(Report(results: results)).write(to: URL(fileURLWithPath: path))
      print("wrote \(path)")
    } catch {
      FileHandle.standardError.write(Data("cannot write \(path): \(error)\n".utf8))
      exit(1)
    }
  }
  blackHole(0)
}

/// A pthread mutex for the hand-written baselines.
final class BaselineLock: @unchecked Sendable {
  // Safety: the mutex is the synchronisation primitive.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}
