// swift-tools-version: 6.2
import PackageDescription

/// Settings shared by every target. Tools version 6 implies the Swift 6 language mode with
/// complete concurrency checking; strict memory safety marks every unsafe use at its site
/// (`unsafe` expressions, `@safe` on the types that encapsulate unsafe storage).
let swiftSettings: [SwiftSetting] = [
  .enableExperimentalFeature("StrictConcurrency"),
  .strictMemorySafety(),
]

let package = Package(
  name: "ReactorKit",
  platforms: [
    // The Observation framework (`ObservedReactor`, `ObservedStore`) sets these floors. The
    // atomics come from the package's own C11 target (CReactorKitAtomics), not from
    // `Synchronization`, which would need macOS 15 / iOS 18.
    .macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1),
  ],
  products: [
    .library(name: "ReactorKit", targets: ["ReactorKit"]),
    .library(name: "ReactorKitStreams", targets: ["ReactorKitStreams"]),
    .library(name: "ReactorKitTesting", targets: ["ReactorKitTesting"]),
    .library(name: "ReactorKitInspector", targets: ["ReactorKitInspector"]),
    .library(name: "ReactorKitCompatibility", targets: ["ReactorKitCompatibility"]),
    .library(name: "ReactorKitReSwift", targets: ["ReactorKitReSwift"]),
    .library(name: "ReactorKitReactiveReSwift", targets: ["ReactorKitReactiveReSwift"]),
    .library(name: "ReactorKitReSwiftTesting", targets: ["ReactorKitReSwiftTesting"]),
  ],
  targets: [
    // C11 atomics behind `UnsafeAtomic`, `AtomicSlot` and `AtomicBox`
    // (ReactorKitStreams/Internal/Synchronization/Atomics.swift).
    .target(name: "CReactorKitAtomics"),
    .target(
      name: "ReactorKitStreams", dependencies: ["CReactorKitAtomics"],
      swiftSettings: swiftSettings),
    .target(name: "ReactorKit", dependencies: ["ReactorKitStreams"], swiftSettings: swiftSettings),
    .target(
      name: "ReactorKitTesting", dependencies: ["ReactorKit"], swiftSettings: swiftSettings),
    .target(
      name: "ReactorKitInspector", dependencies: ["ReactorKit"], swiftSettings: swiftSettings),
    // ReactorKit's names that clash with SwiftUI (`View`, `StoryboardView`), for ported files.
    .target(
      name: "ReactorKitCompatibility", dependencies: ["ReactorKit"],
      swiftSettings: swiftSettings),
    // Migration products: ReSwift's and ReactiveReSwift's APIs over a ReactorKit store (neither
    // re-exports ReactorKit).
    .target(
      name: "ReactorKitReSwift", dependencies: ["ReactorKit"], swiftSettings: swiftSettings),
    .target(
      name: "ReactorKitReactiveReSwift", dependencies: ["ReactorKit"],
      swiftSettings: swiftSettings),
    // ReSwift-Thunk's `ExpectThunk` (it links XCTest, so it stays out of the app's module;
    // `Thunk` and `createThunkMiddleware()` are in ReactorKitReSwift).
    .target(
      name: "ReactorKitReSwiftTesting", dependencies: ["ReactorKitReSwift"],
      swiftSettings: swiftSettings),
    .target(name: "MallocCounter", path: "Benchmarks/MallocCounter"),
    .executableTarget(
      name: "ReactorKitBenchmarks",
      dependencies: [
        "ReactorKit", "ReactorKitInspector", "ReactorKitReSwift", "ReactorKitReactiveReSwift",
        "MallocCounter",
      ],
      path: "Benchmarks/ReactorKitBenchmarks", swiftSettings: swiftSettings),
    // Coverage-guided fuzzing of the untrusted-input parsers (scripts/fuzz.sh builds it with
    // libFuzzer; a plain build checks the seed corpus and seeded mutations).
    .executableTarget(
      name: "ReactorKitFuzz", dependencies: ["ReactorKit", "ReactorKitInspector"],
      path: "Fuzz/ReactorKitFuzz", swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitStreamsTests",
      dependencies: ["ReactorKitStreams", "ReactorKitTesting"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitTests",
      dependencies: ["ReactorKit", "ReactorKitTesting", "ReactorKitCompatibility"],
      // Saved states of earlier model versions, read by path (StateMigrationTests).
      exclude: ["Plugins/Persistence/Fixtures"], swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitTestingTests",
      dependencies: ["ReactorKitTesting", "ReactorKit", "ReactorKitStreams"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitInspectorTests",
      dependencies: ["ReactorKitInspector", "ReactorKitTesting"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitReSwiftTests",
      dependencies: [
        "ReactorKitReSwift", "ReactorKit", "ReactorKitTesting", "ReactorKitReSwiftTesting",
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ReactorKitReactiveReSwiftTests",
      dependencies: ["ReactorKitReactiveReSwift", "ReactorKit", "ReactorKitTesting"],
      swiftSettings: swiftSettings),
    // Examples: a shared terminal layer, each app's logic in a library, thin executables.
    .target(name: "ExampleSupport", path: "Examples/ExampleSupport", swiftSettings: swiftSettings),
    .target(
      name: "CounterKit", dependencies: ["ReactorKit", "ExampleSupport"],
      path: "Examples/Counter/CounterKit", swiftSettings: swiftSettings),
    .executableTarget(
      name: "Counter",
      dependencies: ["CounterKit", "ExampleSupport", "ReactorKit", "ReactorKitInspector"],
      path: "Examples/Counter/Counter", swiftSettings: swiftSettings),
    .target(
      name: "GitHubSearchKit", dependencies: ["ReactorKit", "ExampleSupport"],
      path: "Examples/GitHubSearch/GitHubSearchKit",
      resources: [.copy("Resources/repositories.json")], swiftSettings: swiftSettings),
    .executableTarget(
      name: "GitHubSearch",
      dependencies: ["GitHubSearchKit", "ExampleSupport", "ReactorKit", "ReactorKitInspector"],
      path: "Examples/GitHubSearch/GitHubSearch", swiftSettings: swiftSettings),
    .target(
      name: "TodosKit", dependencies: ["ReactorKit", "ExampleSupport"],
      path: "Examples/Todos/TodosKit", swiftSettings: swiftSettings),
    .executableTarget(
      name: "Todos",
      dependencies: ["TodosKit", "ExampleSupport", "ReactorKit", "ReactorKitInspector"],
      path: "Examples/Todos/Todos", swiftSettings: swiftSettings),
    // The ReSwift way, on the ReSwift facade (issue 24).
    .target(
      name: "ReSwiftCounterKit", dependencies: ["ReactorKitReSwift"],
      path: "Examples/ReSwiftCounter/ReSwiftCounterKit", swiftSettings: swiftSettings),
    .executableTarget(
      name: "ReSwiftCounter", dependencies: ["ReSwiftCounterKit", "ReactorKitReSwift"],
      path: "Examples/ReSwiftCounter/ReSwiftCounter", swiftSettings: swiftSettings),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "ExampleSupport", "CounterKit", "GitHubSearchKit", "TodosKit", "ReactorKitTesting",
        "Counter", "GitHubSearch", "Todos", "ReSwiftCounterKit", "ReSwiftCounter",
      ],
      // A state file of Todos' schema version 1, written by that version (TodosStateFileTests).
      exclude: ["Todos/Fixtures"], swiftSettings: swiftSettings),
  ]
)
