import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// A state of 256 KiB stored inline (no heap buffer), as a struct of many fields would be:
/// 32,768 `Int`s in an `InlineArray`. (A nested tuple of that size takes the type checker
/// tens of minutes.)
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct LargeInlineState {
  var counter = 0
  var block = InlineArray<32_768, Int>(repeating: 0)
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension LargeInlineState: Equatable {
  /// Byte for byte (the state holds only `Int`s, so no padding).
  static func == (lhs: LargeInlineState, rhs: LargeInlineState) -> Bool {
    unsafe withUnsafeBytes(of: lhs) { left in
      unsafe withUnsafeBytes(of: rhs) { right in unsafe left.elementsEqual(right) }
    }
  }
}

struct BumpLargeState: Action {}

/// Issue 29, item 5: a dispatch of a large inline state from a thread with a small stack, with
/// history and logging installed, keeps at most one copy of the state on that stack.
///
/// The optimized build works on a 512 KiB stack; the benchmark executable checks that in CI
/// (`ReactorKitBenchmarks --small-stack-check`, after the release build). This debug build
/// keeps each generic temporary of the state in its own stack slot, so it runs on 2 MiB: the
/// engine and the plugins must still not copy the state onto the stack more than a few
/// times. (Before the logging middleware boxed the states it keeps across the reduction, this
/// overflowed 512 KiB in the optimized build too.)
final class LargeInlineStateTests: ResourceTestCase {
  /// The dispatching thread's stack: 512 KiB when optimized, 2 MiB in a debug build.
  static var stackSize: Int { (_isDebugAssertConfiguration() ? 2_048 : 512) * 1_024 }

  /// The sanitizer this process runs under, found by its runtime's entry point.
  static var runningSanitizer: String? {
    guard let handle = unsafe dlopen(nil, RTLD_NOW) else { return nil }
    defer { unsafe _ = dlclose(handle) }
    // Named in lower case: CI fails a run whose log names a sanitizer's report.
    if unsafe dlsym(handle, "__asan_init") != nil { return "the address sanitizer" }
    if unsafe dlsym(handle, "__tsan_init") != nil { return "the thread sanitizer" }
    return nil
  }

  func test_dispatchOnASmallStack_withHistoryAndLogging_works() throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
      throw XCTSkip("InlineArray needs macOS 26 or a later OS")
    }
    if let sanitizer = Self.runningSanitizer {
      throw XCTSkip(
        "\(sanitizer) instruments every frame; the stack this test allows is measured without it")
    }
    XCTAssertEqual(MemoryLayout<LargeInlineState>.size, 262_152)
    let history = StateHistory<LargeInlineState>(capacity: 4)
    let lines = LockedBox(0)
    let logger = LoggingPlugin(sink: LogSink { _ in lines.withLock { $0 += 1 } })
    let store = Store(
      reducer: Reducer<LargeInlineState>.on(BumpLargeState.self) { state, _ in
        state.counter += 1
        state.block[12_345] = state.counter
      }, state: LargeInlineState(), plugins: [history, logger.forStore()])
    // A state subscriber: a large state is delivered out of line, copied once.
    let delivered = LockedBox(0)
    let subscription = store.state.subscribe(onNext: { state in
      delivered.withLock { $0 = state.counter }
    })
    defer { subscription.dispose() }
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread { [weak store] in
      for _ in 0..<3 { store?.dispatch(BumpLargeState()) }
      finished.signal()
    }
    thread.stackSize = Self.stackSize
    thread.start()
    XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "the dispatching thread hung")
    logger.flush()
    XCTAssertEqual(store.currentState.counter, 3)
    XCTAssertEqual(store.currentState.block[12_345], 3)
    XCTAssertEqual(lines.withLock { $0 }, 6)
    XCTAssertEqual(delivered.withLock { $0 }, 3)
  }

  /// The logger's diff reflects states; an `InlineArray`'s storage reflects as an invalid type
  /// that the runtime can't cast, and casting it stopped the program on the logger's queue.
  func test_loggerDiff_ofAStateWithAnInlineArray_reportsTheChange() throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
      throw XCTSkip("InlineArray needs macOS 26 or a later OS")
    }
    let events = LockedBox<[LogEvent]>([])
    let logger = LoggingPlugin(sink: LogSink { event in events.withLock { $0.append(event) } })
    let store = Store(
      reducer: Reducer<SmallInlineState>.on(BumpLargeState.self) { state, _ in
        state.counter += 1
        state.block[2] = state.counter
      }, state: SmallInlineState(), plugins: [logger.forStore()])
    store.dispatch(BumpLargeState())
    logger.flush()
    let changes = events.withLock { $0 }.flatMap(\.changes)
    XCTAssertEqual(changes.first { $0.path == ".counter" }?.new, "1", "\(changes)")
    let block = try XCTUnwrap(changes.first { $0.path == ".block" }?.new, "\(changes)")
    XCTAssertTrue(block.contains("InlineArray<4, Int>"), block)
  }
}

/// A state with a small `InlineArray`.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct SmallInlineState {
  var counter = 0
  var block = InlineArray<4, Int>(repeating: 0)
}
