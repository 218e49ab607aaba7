import ReactorKit

/// `store_dispatch_1sub`: a store of one counter with one `state` subscriber; one op is one
/// dispatch. Baseline: the same struct reduced under a pthread mutex, then one closure called.
func storeDispatchOneSubscriber() -> Workload {
  Workload(
    name: "store_dispatch_1sub",
    subject: Measured {
      let store = Store(reducer: benchmarkCounterReducer, state: BenchmarkCounter())
      var total = 0
      let subscription = store.state.subscribe(onNext: { total &+= $0.count })
      return { count in
        for _ in 0..<count { store.dispatch(BenchmarkCounterAction.increment) }
        blackHole(total)
        withExtendedLifetime(subscription) {}
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      var state = BenchmarkCounter()
      var total = 0
      let subscriber: (BenchmarkCounter) -> Void = { total &+= $0.count }
      return { count in
        for _ in 0..<count {
          lock.lock()
          reduceBaseline(&state, .increment)
          let published = state
          lock.unlock()
          subscriber(published)
        }
        blackHole(total)
      }
    })
}

/// `store_dispatch_1000subs_slices`: 100 Int fields, 10 `slice` subscribers per field; each op
/// is one dispatch that changes one field. Baseline: the same reduction under a lock, then a
/// naive loop over 1,000 closures, each reading its field and comparing with the last value it
/// saw.
func storeDispatchSlices() -> Workload {
  Workload(
    name: "store_dispatch_1000subs_slices",
    subject: Measured {
      let store = Store(reducer: hundredFieldsReducer, state: HundredFields())
      var total = 0
      let bag = DisposeBag()
      for path in hundredFieldPaths {
        for _ in 0..<10 {
          store.slice(path).subscribe(onNext: { total &+= $0 }).disposed(by: bag)
        }
      }
      return { count in
        for index in 0..<count { store.dispatch(IncrementField(index: index % 100)) }
        blackHole(total)
        withExtendedLifetime(bag) {}
      }
    },
    baseline: Measured {
      // Written to be fast: closures read through a pointer (no struct copies) and keep their
      // last value in unmanaged memory (no dynamic exclusivity checks).
      let lock = BaselineLock()
      var state = HundredFields()
      let total = UnsafeMutablePointer<Int>.allocate(capacity: 1)
      total.initialize(to: 0)
      let lasts = UnsafeMutablePointer<Int>.allocate(capacity: 1_000)
      lasts.initialize(repeating: 0, count: 1_000)
      var closures: [(UnsafePointer<HundredFields>) -> Void] = []
      for field in 0..<100 {
        for copy in 0..<10 {
          let last = lasts + (field * 10 + copy)
          closures.append { state in
            let value = readField(state, field)
            if value != last.pointee {
              last.pointee = value
              total.pointee &+= value
            }
          }
        }
      }
      return { count in
        for index in 0..<count {
          lock.lock()
          incrementField(&state, index % 100)
          var published = state
          lock.unlock()
          withUnsafePointer(to: &published) { pointer in
            for closure in closures { closure(pointer) }
          }
        }
        blackHole(total.pointee)
      }
    })
}

struct BenchmarkCounter {
  var count = 0
}

enum BenchmarkCounterAction: Action {
  case increment
  case decrement
}

func reduceBaseline(_ state: inout BenchmarkCounter, _ action: BenchmarkCounterAction) {
  switch action {
  case .increment: state.count &+= 1
  case .decrement: state.count &-= 1
  }
}

var benchmarkCounterReducer: Reducer<BenchmarkCounter> {
  Reducer<BenchmarkCounter>.on(BenchmarkCounterAction.self) {
    reduceBaseline(&$0, $1)
  }
}

struct IncrementField: Action {
  let index: Int
}

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
}

var hundredFieldPaths: [KeyPath<HundredFields, Int>] {
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

var hundredFieldsReducer: Reducer<HundredFields> {
  Reducer<HundredFields>.on(IncrementField.self) { state, action in
    incrementField(&state, action.index)
  }
}

func readField(_ state: UnsafePointer<HundredFields>, _ index: Int) -> Int {
  switch index {
  case 0: return state.pointee.f0
  case 1: return state.pointee.f1
  case 2: return state.pointee.f2
  case 3: return state.pointee.f3
  case 4: return state.pointee.f4
  case 5: return state.pointee.f5
  case 6: return state.pointee.f6
  case 7: return state.pointee.f7
  case 8: return state.pointee.f8
  case 9: return state.pointee.f9
  case 10: return state.pointee.f10
  case 11: return state.pointee.f11
  case 12: return state.pointee.f12
  case 13: return state.pointee.f13
  case 14: return state.pointee.f14
  case 15: return state.pointee.f15
  case 16: return state.pointee.f16
  case 17: return state.pointee.f17
  case 18: return state.pointee.f18
  case 19: return state.pointee.f19
  case 20: return state.pointee.f20
  case 21: return state.pointee.f21
  case 22: return state.pointee.f22
  case 23: return state.pointee.f23
  case 24: return state.pointee.f24
  case 25: return state.pointee.f25
  case 26: return state.pointee.f26
  case 27: return state.pointee.f27
  case 28: return state.pointee.f28
  case 29: return state.pointee.f29
  case 30: return state.pointee.f30
  case 31: return state.pointee.f31
  case 32: return state.pointee.f32
  case 33: return state.pointee.f33
  case 34: return state.pointee.f34
  case 35: return state.pointee.f35
  case 36: return state.pointee.f36
  case 37: return state.pointee.f37
  case 38: return state.pointee.f38
  case 39: return state.pointee.f39
  case 40: return state.pointee.f40
  case 41: return state.pointee.f41
  case 42: return state.pointee.f42
  case 43: return state.pointee.f43
  case 44: return state.pointee.f44
  case 45: return state.pointee.f45
  case 46: return state.pointee.f46
  case 47: return state.pointee.f47
  case 48: return state.pointee.f48
  case 49: return state.pointee.f49
  case 50: return state.pointee.f50
  case 51: return state.pointee.f51
  case 52: return state.pointee.f52
  case 53: return state.pointee.f53
  case 54: return state.pointee.f54
  case 55: return state.pointee.f55
  case 56: return state.pointee.f56
  case 57: return state.pointee.f57
  case 58: return state.pointee.f58
  case 59: return state.pointee.f59
  case 60: return state.pointee.f60
  case 61: return state.pointee.f61
  case 62: return state.pointee.f62
  case 63: return state.pointee.f63
  case 64: return state.pointee.f64
  case 65: return state.pointee.f65
  case 66: return state.pointee.f66
  case 67: return state.pointee.f67
  case 68: return state.pointee.f68
  case 69: return state.pointee.f69
  case 70: return state.pointee.f70
  case 71: return state.pointee.f71
  case 72: return state.pointee.f72
  case 73: return state.pointee.f73
  case 74: return state.pointee.f74
  case 75: return state.pointee.f75
  case 76: return state.pointee.f76
  case 77: return state.pointee.f77
  case 78: return state.pointee.f78
  case 79: return state.pointee.f79
  case 80: return state.pointee.f80
  case 81: return state.pointee.f81
  case 82: return state.pointee.f82
  case 83: return state.pointee.f83
  case 84: return state.pointee.f84
  case 85: return state.pointee.f85
  case 86: return state.pointee.f86
  case 87: return state.pointee.f87
  case 88: return state.pointee.f88
  case 89: return state.pointee.f89
  case 90: return state.pointee.f90
  case 91: return state.pointee.f91
  case 92: return state.pointee.f92
  case 93: return state.pointee.f93
  case 94: return state.pointee.f94
  case 95: return state.pointee.f95
  case 96: return state.pointee.f96
  case 97: return state.pointee.f97
  case 98: return state.pointee.f98
  case 99: return state.pointee.f99
  default: return 0
  }
}

func incrementField(_ state: inout HundredFields, _ index: Int) {
  switch index {
  case 0: state.f0 &+= 1
  case 1: state.f1 &+= 1
  case 2: state.f2 &+= 1
  case 3: state.f3 &+= 1
  case 4: state.f4 &+= 1
  case 5: state.f5 &+= 1
  case 6: state.f6 &+= 1
  case 7: state.f7 &+= 1
  case 8: state.f8 &+= 1
  case 9: state.f9 &+= 1
  case 10: state.f10 &+= 1
  case 11: state.f11 &+= 1
  case 12: state.f12 &+= 1
  case 13: state.f13 &+= 1
  case 14: state.f14 &+= 1
  case 15: state.f15 &+= 1
  case 16: state.f16 &+= 1
  case 17: state.f17 &+= 1
  case 18: state.f18 &+= 1
  case 19: state.f19 &+= 1
  case 20: state.f20 &+= 1
  case 21: state.f21 &+= 1
  case 22: state.f22 &+= 1
  case 23: state.f23 &+= 1
  case 24: state.f24 &+= 1
  case 25: state.f25 &+= 1
  case 26: state.f26 &+= 1
  case 27: state.f27 &+= 1
  case 28: state.f28 &+= 1
  case 29: state.f29 &+= 1
  case 30: state.f30 &+= 1
  case 31: state.f31 &+= 1
  case 32: state.f32 &+= 1
  case 33: state.f33 &+= 1
  case 34: state.f34 &+= 1
  case 35: state.f35 &+= 1
  case 36: state.f36 &+= 1
  case 37: state.f37 &+= 1
  case 38: state.f38 &+= 1
  case 39: state.f39 &+= 1
  case 40: state.f40 &+= 1
  case 41: state.f41 &+= 1
  case 42: state.f42 &+= 1
  case 43: state.f43 &+= 1
  case 44: state.f44 &+= 1
  case 45: state.f45 &+= 1
  case 46: state.f46 &+= 1
  case 47: state.f47 &+= 1
  case 48: state.f48 &+= 1
  case 49: state.f49 &+= 1
  case 50: state.f50 &+= 1
  case 51: state.f51 &+= 1
  case 52: state.f52 &+= 1
  case 53: state.f53 &+= 1
  case 54: state.f54 &+= 1
  case 55: state.f55 &+= 1
  case 56: state.f56 &+= 1
  case 57: state.f57 &+= 1
  case 58: state.f58 &+= 1
  case 59: state.f59 &+= 1
  case 60: state.f60 &+= 1
  case 61: state.f61 &+= 1
  case 62: state.f62 &+= 1
  case 63: state.f63 &+= 1
  case 64: state.f64 &+= 1
  case 65: state.f65 &+= 1
  case 66: state.f66 &+= 1
  case 67: state.f67 &+= 1
  case 68: state.f68 &+= 1
  case 69: state.f69 &+= 1
  case 70: state.f70 &+= 1
  case 71: state.f71 &+= 1
  case 72: state.f72 &+= 1
  case 73: state.f73 &+= 1
  case 74: state.f74 &+= 1
  case 75: state.f75 &+= 1
  case 76: state.f76 &+= 1
  case 77: state.f77 &+= 1
  case 78: state.f78 &+= 1
  case 79: state.f79 &+= 1
  case 80: state.f80 &+= 1
  case 81: state.f81 &+= 1
  case 82: state.f82 &+= 1
  case 83: state.f83 &+= 1
  case 84: state.f84 &+= 1
  case 85: state.f85 &+= 1
  case 86: state.f86 &+= 1
  case 87: state.f87 &+= 1
  case 88: state.f88 &+= 1
  case 89: state.f89 &+= 1
  case 90: state.f90 &+= 1
  case 91: state.f91 &+= 1
  case 92: state.f92 &+= 1
  case 93: state.f93 &+= 1
  case 94: state.f94 &+= 1
  case 95: state.f95 &+= 1
  case 96: state.f96 &+= 1
  case 97: state.f97 &+= 1
  case 98: state.f98 &+= 1
  case 99: state.f99 &+= 1
  default: break
  }
}
