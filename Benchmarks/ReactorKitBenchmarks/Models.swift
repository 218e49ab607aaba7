import ReactorKit

/// The state of the counter workloads.
struct Counter: Equatable, Codable {
  var count = 0
}

/// The store action of the counter workloads.
enum CounterAction: Action, Codable {
  case increment
}

/// The counter store's reducer.
func counterReducer() -> Reducer<Counter> {
  Reducer<Counter>.on(CounterAction.self) { state, action in
    switch action {
    case .increment: state.count &+= 1
    }
  }
}

/// A counter reactor: `mutate` turns each action into one mutation (`.just`), `reduce` folds it
/// into the state.
final class CounterReactor: Reactor {
  enum Action { case increase }
  enum Mutation { case increaseValue }
  typealias State = Counter

  let initialState = Counter()

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .increase: return .just(.increaseValue)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.count &+= 1
    }
    return state
  }
}

/// A state of 100 `Int` fields, for the slice workloads.
struct HundredFields {
  var f0 = 0
  var f1 = 0
  var f2 = 0
  var f3 = 0
  var f4 = 0
  var f5 = 0
  var f6 = 0
  var f7 = 0
  var f8 = 0
  var f9 = 0
  var f10 = 0
  var f11 = 0
  var f12 = 0
  var f13 = 0
  var f14 = 0
  var f15 = 0
  var f16 = 0
  var f17 = 0
  var f18 = 0
  var f19 = 0
  var f20 = 0
  var f21 = 0
  var f22 = 0
  var f23 = 0
  var f24 = 0
  var f25 = 0
  var f26 = 0
  var f27 = 0
  var f28 = 0
  var f29 = 0
  var f30 = 0
  var f31 = 0
  var f32 = 0
  var f33 = 0
  var f34 = 0
  var f35 = 0
  var f36 = 0
  var f37 = 0
  var f38 = 0
  var f39 = 0
  var f40 = 0
  var f41 = 0
  var f42 = 0
  var f43 = 0
  var f44 = 0
  var f45 = 0
  var f46 = 0
  var f47 = 0
  var f48 = 0
  var f49 = 0
  var f50 = 0
  var f51 = 0
  var f52 = 0
  var f53 = 0
  var f54 = 0
  var f55 = 0
  var f56 = 0
  var f57 = 0
  var f58 = 0
  var f59 = 0
  var f60 = 0
  var f61 = 0
  var f62 = 0
  var f63 = 0
  var f64 = 0
  var f65 = 0
  var f66 = 0
  var f67 = 0
  var f68 = 0
  var f69 = 0
  var f70 = 0
  var f71 = 0
  var f72 = 0
  var f73 = 0
  var f74 = 0
  var f75 = 0
  var f76 = 0
  var f77 = 0
  var f78 = 0
  var f79 = 0
  var f80 = 0
  var f81 = 0
  var f82 = 0
  var f83 = 0
  var f84 = 0
  var f85 = 0
  var f86 = 0
  var f87 = 0
  var f88 = 0
  var f89 = 0
  var f90 = 0
  var f91 = 0
  var f92 = 0
  var f93 = 0
  var f94 = 0
  var f95 = 0
  var f96 = 0
  var f97 = 0
  var f98 = 0
  var f99 = 0

  /// The key path of each field, in order.
  static var paths: [KeyPath<HundredFields, Int>] {
    [
      \HundredFields.f0, \HundredFields.f1, \HundredFields.f2, \HundredFields.f3, \HundredFields.f4,
      \HundredFields.f5, \HundredFields.f6, \HundredFields.f7, \HundredFields.f8, \HundredFields.f9,
      \HundredFields.f10, \HundredFields.f11, \HundredFields.f12, \HundredFields.f13,
      \HundredFields.f14, \HundredFields.f15, \HundredFields.f16, \HundredFields.f17,
      \HundredFields.f18, \HundredFields.f19, \HundredFields.f20, \HundredFields.f21,
      \HundredFields.f22, \HundredFields.f23, \HundredFields.f24, \HundredFields.f25,
      \HundredFields.f26, \HundredFields.f27, \HundredFields.f28, \HundredFields.f29,
      \HundredFields.f30, \HundredFields.f31, \HundredFields.f32, \HundredFields.f33,
      \HundredFields.f34, \HundredFields.f35, \HundredFields.f36, \HundredFields.f37,
      \HundredFields.f38, \HundredFields.f39, \HundredFields.f40, \HundredFields.f41,
      \HundredFields.f42, \HundredFields.f43, \HundredFields.f44, \HundredFields.f45,
      \HundredFields.f46, \HundredFields.f47, \HundredFields.f48, \HundredFields.f49,
      \HundredFields.f50, \HundredFields.f51, \HundredFields.f52, \HundredFields.f53,
      \HundredFields.f54, \HundredFields.f55, \HundredFields.f56, \HundredFields.f57,
      \HundredFields.f58, \HundredFields.f59, \HundredFields.f60, \HundredFields.f61,
      \HundredFields.f62, \HundredFields.f63, \HundredFields.f64, \HundredFields.f65,
      \HundredFields.f66, \HundredFields.f67, \HundredFields.f68, \HundredFields.f69,
      \HundredFields.f70, \HundredFields.f71, \HundredFields.f72, \HundredFields.f73,
      \HundredFields.f74, \HundredFields.f75, \HundredFields.f76, \HundredFields.f77,
      \HundredFields.f78, \HundredFields.f79, \HundredFields.f80, \HundredFields.f81,
      \HundredFields.f82, \HundredFields.f83, \HundredFields.f84, \HundredFields.f85,
      \HundredFields.f86, \HundredFields.f87, \HundredFields.f88, \HundredFields.f89,
      \HundredFields.f90, \HundredFields.f91, \HundredFields.f92, \HundredFields.f93,
      \HundredFields.f94, \HundredFields.f95, \HundredFields.f96, \HundredFields.f97,
      \HundredFields.f98, \HundredFields.f99,
    ]
  }

  /// The byte offset of each field, in order.
  static let offsets: [Int] = paths.map { MemoryLayout<HundredFields>.offset(of: $0)! }
}

/// Adds 1 to the field at byte `offset` of `state`.
@inline(__always)
func incrementField(_ state: inout HundredFields, offset: Int) {
  unsafe withUnsafeMutableBytes(of: &state) { bytes in
    unsafe bytes.storeBytes(
      of: bytes.load(fromByteOffset: offset, as: Int.self) &+ 1, toByteOffset: offset,
      as: Int.self)
  }
}

/// Reads the field at byte `offset` of `state`.
@inline(__always)
func readField(_ state: UnsafePointer<HundredFields>, offset: Int) -> Int {
  unsafe UnsafeRawPointer(state).load(fromByteOffset: offset, as: Int.self)
}

/// The store action of the slice workloads: add 1 to one field.
struct IncrementField: Action {
  let field: Int
}

/// Applies ``IncrementField`` by byte offset, the same way the baselines do.
func hundredFieldsReducer() -> Reducer<HundredFields> {
  let offsets = HundredFields.offsets
  return Reducer<HundredFields>.on(IncrementField.self) { state, action in
    incrementField(&state, offset: offsets[action.field])
  }
}
