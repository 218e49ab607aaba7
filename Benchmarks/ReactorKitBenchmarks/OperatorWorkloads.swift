import ReactorKit

/// `rx_scan_distinct`: a subject through `scan` and `distinctUntilChanged` (the shape of a
/// reactor's state pipeline); one op is one element.
func rxScanDistinct() -> Workload {
  Workload(
    name: "rx_scan_distinct",
    subject: Measured {
      let subject = PublishSubject<Int>()
      var total = 0
      let subscription = subject.scan(0) { $0 &+ $1 }.distinctUntilChanged()
        .subscribe(onNext: { total &+= $0 })
      return { count in
        let start = total
        for value in 0..<count { subject.onNext(value & 1) }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      var state = 0
      var previous: Int?
      let closure: (Int) -> Void = { value in
        state &+= value
        if previous != state {
          previous = state
          total &+= state
        }
      }
      return { count in
        let start = total
        for value in 0..<count { closure(value & 1) }
        return total &- start
      }
    })
}

/// `rx_flatmap_just`: `flatMap` to a synchronous `just` per element (a reactor's
/// `mutate` returning one mutation); one op is one element.
func rxFlatMapJust() -> Workload {
  Workload(
    name: "rx_flatmap_just",
    subject: Measured {
      let subject = PublishSubject<Int>()
      var total = 0
      let subscription = subject.flatMap { Observable.just($0 &* 2) }
        .subscribe(onNext: { total &+= $0 })
      return { count in
        let start = total
        for value in 0..<count { subject.onNext(value) }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      let inner: (Int) -> Void = { total &+= $0 }
      let outer: (Int) -> Void = { inner($0 &* 2) }
      return { count in
        let start = total
        for value in 0..<count { outer(value) }
        return total &- start
      }
    })
}

/// `rx_merge_two`: two subjects merged, elements alternating; one op is one element.
func rxMergeTwo() -> Workload {
  Workload(
    name: "rx_merge_two",
    subject: Measured {
      let first = PublishSubject<Int>()
      let second = PublishSubject<Int>()
      var total = 0
      let subscription = Observable.merge(first.asObservable(), second.asObservable())
        .subscribe(onNext: { total &+= $0 })
      return { count in
        let start = total
        for value in 0..<count {
          if value & 1 == 0 { first.onNext(value) } else { second.onNext(value) }
        }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      let closure: (Int) -> Void = { total &+= $0 }
      return { count in
        let start = total
        for value in 0..<count { closure(value) }
        return total &- start
      }
    })
}

/// `rx_combine_latest`: three subjects combined with a selector, elements round-robin; one op
/// is one element (each one emits a combination).
func rxCombineLatest() -> Workload {
  Workload(
    name: "rx_combine_latest",
    subject: Measured {
      let subjects = (PublishSubject<Int>(), PublishSubject<Int>(), PublishSubject<Int>())
      var total = 0
      let subscription = Observable.combineLatest(subjects.0, subjects.1, subjects.2) {
        $0 &+ $1 &+ $2
      }
      .subscribe(onNext: { total &+= $0 })
      subjects.1.onNext(0)
      subjects.2.onNext(0)
      return { count in
        let start = total
        for value in 0..<count {
          switch value % 3 {
          case 0: subjects.0.onNext(value)
          case 1: subjects.1.onNext(value)
          default: subjects.2.onNext(value)
          }
        }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      var latest = (0, 0, 0)
      let closure: (Int) -> Void = { total &+= $0 }
      return { count in
        let start = total
        for value in 0..<count {
          switch value % 3 {
          case 0: latest.0 = value
          case 1: latest.1 = value
          default: latest.2 = value
          }
          closure(latest.0 &+ latest.1 &+ latest.2)
        }
        return total &- start
      }
    })
}

/// `rx_zip`: two subjects zipped with a selector, elements alternating; one op is one element
/// (every second one completes a pair).
func rxZip() -> Workload {
  Workload(
    name: "rx_zip",
    subject: Measured {
      let first = PublishSubject<Int>()
      let second = PublishSubject<Int>()
      var total = 0
      let subscription = Observable.zip(first, second) { $0 &+ $1 }
        .subscribe(onNext: { total &+= $0 })
      return { count in
        let start = total
        for value in 0..<count {
          if value & 1 == 0 { first.onNext(value) } else { second.onNext(value) }
        }
        withExtendedLifetime(subscription) {}
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      var pending = 0
      let closure: (Int) -> Void = { total &+= $0 }
      return { count in
        let start = total
        for value in 0..<count {
          if value & 1 == 0 { pending = value } else { closure(pending &+ value) }
        }
        return total &- start
      }
    })
}
