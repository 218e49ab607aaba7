import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// `ReactorKitFuzz TARGET [options and corpus directories]`, where TARGET is `http` or
/// `recording`; `ReactorKitFuzz small-stack` runs the small-stack check instead (see
/// `runSmallStackCheck()`).
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address -D FUZZING`, the rest of the
/// arguments go to libFuzzer (`-max_total_time=60 Fuzz/Corpus/http`). In a plain build it
/// checks the files given, or the seed corpus and 20,000 seeded random mutations of it, so the
/// properties also run where libFuzzer is not available.
@main
enum ReactorKitFuzz {
  static func main() {
    var arguments = CommandLine.arguments
    if arguments.count == 2 && arguments[1] == "small-stack" {
      exit(runSmallStackCheck() ? 0 : 1)
    }
    guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
      FileHandle.standardError.write(
        Data("usage: ReactorKitFuzz \(names) [arguments] | ReactorKitFuzz small-stack\n".utf8))
      exit(2)
    }
    unsafe selected = target
    arguments.remove(at: 1)
    #if FUZZING
      exit(runLibFuzzer(arguments))
    #else
      exit(runWithoutLibFuzzer(target, paths: Array(arguments.dropFirst())))
    #endif
  }

  /// The target libFuzzer's callback checks (set once before fuzzing starts).
  nonisolated(unsafe) static var selected = FuzzTarget.http
}

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = unsafe data.map { unsafe Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  unsafe ReactorKitFuzz.selected.check(bytes)
  return 0
}

#if FUZZING
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  func runLibFuzzer(_ arguments: [String]) -> CInt {
    var argc = CInt(arguments.count)
    let strings = unsafe arguments.map { unsafe strdup($0) } + [nil]
    let argv = unsafe UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
      capacity: strings.count)
    unsafe argv.initialize(from: strings, count: strings.count)
    var argvPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = unsafe argv
    return unsafe LLVMFuzzerRunDriver(&argc, &argvPointer, fuzzOneInput)
  }
#else
  /// Checks the given files (or every file of the given directories); with none, the seed
  /// corpus under `Fuzz/Corpus/TARGET` and seeded mutations of it.
  func runWithoutLibFuzzer(_ target: FuzzTarget, paths: [String]) -> CInt {
    let corpus = paths.isEmpty ? [seedDirectory(target)] : paths
    var inputs: [[UInt8]] = []
    for path in corpus {
      var isDirectory: ObjCBool = false
      guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("no such file: \(path)\n".utf8))
        return 2
      }
      let files =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
          path + "/" + $0
        } : [path]
      for file in files {
        if let data = FileManager.default.contents(atPath: file) { inputs.append(Array(data)) }
      }
    }
    for input in inputs { target.check(input) }
    var checked = inputs.count
    if paths.isEmpty {
      var random = SplitMix(seed: 0x5EED)
      for _ in 0..<20_000 {
        target.check(mutate(inputs.randomElement(using: &random) ?? [], using: &random))
        checked += 1
      }
    }
    print("\(target.rawValue): \(checked) inputs checked, every property held")
    return 0
  }

  func seedDirectory(_ target: FuzzTarget) -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent("Corpus/\(target.rawValue)").path
  }

  /// A few random edits: flipped, inserted, removed or duplicated bytes, or a cut.
  func mutate(_ input: [UInt8], using random: inout SplitMix) -> [UInt8] {
    var bytes = input
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0 where !bytes.isEmpty: bytes[position] ^= UInt8.random(in: 1...255, using: &random)
      case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
      case 2 where !bytes.isEmpty: bytes.remove(at: position)
      case 3 where !bytes.isEmpty:
        let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
        bytes.insert(contentsOf: bytes[position..<end], at: position)
      default: bytes = Array(bytes.prefix(position))
      }
    }
    return bytes
  }

  /// A small seeded generator, so a failing run repeats exactly.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }
#endif
