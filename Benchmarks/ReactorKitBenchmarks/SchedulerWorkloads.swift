import Dispatch
import ReactorKit

/// What a subscriber on a dispatch queue received; touched only on that queue, except
/// `done`.
private final class QueueTally: @unchecked Sendable {
  // Safety: `total` and `remaining` are only touched on the subscriber's queue (set up with
  // `queue.sync`); the semaphore synchronises itself.
  var total = 0
  var remaining = 0
  let done = DispatchSemaphore(value: 0)

  /// Counts `value`; signals `done` after the last expected one.
  func receive(_ value: Int) {
    total &+= value
    remaining -= 1
    if remaining == 0 { done.signal() }
  }
}

/// Sends `count` elements with `send` and waits until `tally` received them all.
private func burst(
  _ count: Int, on queue: DispatchQueue, tally: QueueTally, _ send: (Int) -> Void
) -> Int {
  let start = queue.sync {
    tally.remaining = count
    return tally.total
  }
  guard count > 0 else { return 0 }
  for value in 0..<count { send(value) }
  tally.done.wait()
  return queue.sync { tally.total &- start }
}

/// `rx_observe_on_queue`: PublishSubject → `observe(on:)` a serial dispatch queue scheduler →
/// subscribe, elements sent in one burst; one op is one element. Baseline: one `async` per
/// element by hand, what scheduling one action per event (RxSwift's way) costs at least;
/// `observe(on:)` batches what has arrived into one drain on real schedulers.
func rxObserveOnQueue() -> Workload {
  Workload(
    name: "rx_observe_on_queue",
    subject: Measured {
      let queue = DispatchQueue(label: "rx_observe_on_queue")
      let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "")
      let tally = QueueTally()
      let subject = PublishSubject<Int>()
      let subscription = subject.observe(on: scheduler).subscribe(onNext: tally.receive)
      return { count in
        defer { withExtendedLifetime(subscription) {} }
        return burst(count, on: queue, tally: tally) { subject.onNext($0) }
      }
    },
    baseline: Measured {
      let queue = DispatchQueue(label: "rx_observe_on_queue.baseline")
      let tally = QueueTally()
      return { count in
        burst(count, on: queue, tally: tally) { value in queue.async { tally.receive(value) } }
      }
    },
    validationCount: 10_000)
}

/// `rx_delay_queue`: PublishSubject → `delay(1 ms)` on a serial dispatch queue scheduler →
/// subscribe, elements sent in one burst; one op is one element. Baseline: one `asyncAfter`
/// per element by hand, what scheduling one timer per event costs at least; `delay` delivers
/// everything due in one timer action on real schedulers.
func rxDelayQueue() -> Workload {
  Workload(
    name: "rx_delay_queue",
    subject: Measured {
      let queue = DispatchQueue(label: "rx_delay_queue")
      let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "")
      let tally = QueueTally()
      let subject = PublishSubject<Int>()
      let subscription = subject.delay(.milliseconds(1), scheduler: scheduler)
        .subscribe(onNext: tally.receive)
      return { count in
        defer { withExtendedLifetime(subscription) {} }
        return burst(count, on: queue, tally: tally) { subject.onNext($0) }
      }
    },
    baseline: Measured {
      let queue = DispatchQueue(label: "rx_delay_queue.baseline")
      let tally = QueueTally()
      return { count in
        burst(count, on: queue, tally: tally) { value in
          queue.asyncAfter(deadline: .now() + .milliseconds(1)) { tally.receive(value) }
        }
      }
    },
    validationCount: 10_000)
}

/// `rx_range`: `Observable.range(start: 0, count: n)` subscribed once, summing; one op is one
/// element. The synchronous sources' loop on the trampoline: a flag check and a look at the
/// trampoline's queue per element. Baseline: the same sum in a loop.
func rxRange() -> Workload {
  Workload(
    name: "rx_range",
    subject: Measured {
      { count in
        var total = 0
        _ = Observable.range(start: 0, count: count).subscribe(onNext: { total &+= $0 })
        return total
      }
    },
    baseline: Measured {
      let add = opaque { (total: Int, value: Int) in total &+ value }
      return { count in
        var total = 0
        for value in 0..<count { total = add(total, value) }
        return total
      }
    })
}
