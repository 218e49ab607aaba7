import ReactorKit

/// `rx_operator_chain`: PublishSubject → map → filter → scan → distinctUntilChanged →
/// subscribe; one op is one element sent into the subject. Baseline: the same four closures
/// composed by hand in a loop.
func rxOperatorChain() -> Workload {
  let transform: (Int) -> Int = { $0 &* 3 }
  let isIncluded: (Int) -> Bool = { $0 & 1 == 0 }
  let accumulate: (Int, Int) -> Int = { ($0 &+ $1) & 0xFFFF }
  return Workload(
    name: "rx_operator_chain",
    subject: Measured {
      let subject = PublishSubject<Int>()
      var total = 0
      let subscription =
        subject
        .map(transform)
        .filter(isIncluded)
        .scan(0, accumulator: accumulate)
        .distinctUntilChanged()
        .subscribe(onNext: { total &+= $0 })
      return { count in
        let start = total
        for value in 0..<count { subject.onNext(value) }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      let transform = opaque(transform)
      let isIncluded = opaque(isIncluded)
      let accumulate = opaque(accumulate)
      var accumulator = 0
      var last: Int?
      var total = 0
      let subscriber = opaque { total &+= $0 }
      return { count in
        let start = total
        for value in 0..<count {
          let mapped = transform(value)
          guard isIncluded(mapped) else { continue }
          accumulator = accumulate(accumulator, mapped)
          if let last, last == accumulator { continue }
          last = accumulator
          subscriber(accumulator)
        }
        return total &- start
      }
    },
    validationCount: 100_000,
    targets: [.ratio(5), .allocationsPerOp(0.01)])
}

/// `rx_subject_fanout`: one PublishSubject, 1,000 subscribers; one op is one element.
/// Baseline: a loop over 1,000 closures.
func rxSubjectFanout() -> Workload {
  let subscribers = 1_000
  return Workload(
    name: "rx_subject_fanout",
    subject: Measured {
      let subject = PublishSubject<Int>()
      var total = 0
      let bag = DisposeBag()
      for _ in 0..<subscribers {
        subject.subscribe(onNext: { total &+= $0 }).disposed(by: bag)
      }
      return { count in
        let start = total
        for value in 0..<count { subject.onNext(value) }
        withExtendedLifetime(bag) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      var closures: [(Int) -> Void] = []
      for _ in 0..<subscribers { closures.append { total &+= $0 } }
      return { count in
        let start = total
        for value in 0..<count {
          for closure in closures { closure(value) }
        }
        return total &- start
      }
    },
    targets: [.ratio(2), .allocationsPerOp(0.01)])
}
