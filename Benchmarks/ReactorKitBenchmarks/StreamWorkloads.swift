import ReactorKit

/// `rx_subject_fanout`: one PublishSubject, 1,000 subscribers; one op is one element.
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
        for value in 0..<count { subject.onNext(value) }
        blackHole(total)
        withExtendedLifetime(bag) {}
      }
    },
    baseline: Measured {
      var total = 0
      var closures: [(Int) -> Void] = []
      for _ in 0..<subscribers { closures.append { total &+= $0 } }
      return { count in
        for value in 0..<count {
          for closure in closures { closure(value) }
        }
        blackHole(total)
      }
    })
}
