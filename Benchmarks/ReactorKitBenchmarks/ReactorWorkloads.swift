import Dispatch
import ReactorKit

/// The floor of the counter workloads: a struct reduced under a pthread mutex, then one
/// subscriber closure called with the new state. Its checksum is the sum of the counts seen.
func lockedCounterBaseline() -> Measured {
  Measured {
    let lock = BaselineLock()
    var state = Counter()
    var total = 0
    let subscriber = opaque { (state: Counter) in total &+= state.count }
    return { count in
      let start = total
      for _ in 0..<count {
        lock.lock()
        state.count &+= 1
        let published = state
        lock.unlock()
        subscriber(published)
      }
      return total &- start
    }
  }
}

/// `reactor_sync`: a counter reactor with one state subscriber; one op is one
/// `action.onNext`, which runs mutate (`.just`), reduce and the subscriber synchronously.
func reactorSync() -> Workload {
  Workload(
    name: "reactor_sync",
    subject: Measured {
      let reactor = CounterReactor()
      var total = 0
      let subscription = reactor.state.subscribe(onNext: { total &+= $0.count })
      let action = reactor.action
      return { count in
        let start = total
        for _ in 0..<count { action.onNext(.increase) }
        withExtendedLifetime((reactor, subscription)) {}
        return total &- start
      }
    },
    baseline: lockedCounterBaseline(),
    targets: [.ratio(10)])
}

/// The hand-written floor of ``reactorCreate()``: an object holding a lock, a state and one
/// subscriber.
@safe
final class HandWrittenCounter {
  let lock = BaselineLock()
  let state = UnsafeMutablePointer<Counter>.allocate(capacity: 1)
  let subscriber: (Counter) -> Void

  init(subscriber: @escaping (Counter) -> Void) {
    unsafe state.initialize(to: Counter())
    self.subscriber = subscriber
    unsafe subscriber(state.pointee)
  }

  deinit {
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }

  func increase() {
    lock.lock()
    unsafe state.pointee.count &+= 1
    let published = unsafe state.pointee
    lock.unlock()
    subscriber(published)
  }
}

/// `reactor_create`: one op creates a counter reactor, subscribes to its state, sends one
/// action, disposes the subscription and frees the reactor. Baseline: the same with an object
/// holding a lock, a state and a subscriber closure.
func reactorCreate() -> Workload {
  Workload(
    name: "reactor_create",
    subject: Measured {
      var total = 0
      return { count in
        let start = total
        for _ in 0..<count {
          let reactor = CounterReactor()
          let subscription = reactor.state.subscribe(onNext: { total &+= $0.count &+ 1 })
          reactor.action.onNext(.increase)
          subscription.dispose()
        }
        return total &- start
      }
    },
    baseline: Measured {
      var total = 0
      return { count in
        let start = total
        for _ in 0..<count {
          let counter = HandWrittenCounter(subscriber: { total &+= $0.count &+ 1 })
          counter.increase()
        }
        return total &- start
      }
    },
    targets: [.nanoseconds(2_000)])
}

/// `reactor_live_bytes`: heap bytes per live counter reactor whose streams exist, with one
/// state subscriber, measured over 10,000 live reactors with the malloc counter.
func reactorLiveBytes() -> Workload {
  Workload(
    name: "reactor_live_bytes",
    bytes: {
      let reactors = 10_000
      var total = 0
      // Warm up the shared tables and this thread's trampoline.
      do {
        let reactor = CounterReactor()
        reactor.state.subscribe(onNext: { total &+= $0.count }).dispose()
      }
      var live: [CounterReactor] = []
      var subscriptions: [Disposable] = []
      live.reserveCapacity(reactors)
      subscriptions.reserveCapacity(reactors)
      guard let before = heapBytesInUse() else { return nil }
      for _ in 0..<reactors {
        let reactor = CounterReactor()
        subscriptions.append(reactor.state.subscribe(onNext: { total &+= $0.count }))
        live.append(reactor)
      }
      guard let after = heapBytesInUse() else { return nil }
      for subscription in subscriptions { subscription.dispose() }
      blackHole(total)
      withExtendedLifetime(live) {}
      return Double(after - before) / Double(reactors)
    },
    targets: [.bytes(1_024)])
}

/// `reactor_idle`: percent of one core the process uses over 5 s while 100,000 counter
/// reactors, each with one state subscriber, are alive and nothing happens (CPU time from
/// `getrusage`, every thread). An idle app must cost nothing.
func reactorIdle() -> Workload {
  Workload(
    name: "reactor_idle",
    cpuPercent: {
      let reactors = 100_000
      let seconds = 5.0
      var total = 0
      var live: [CounterReactor] = []
      var subscriptions: [Disposable] = []
      live.reserveCapacity(reactors)
      subscriptions.reserveCapacity(reactors)
      for _ in 0..<reactors {
        let reactor = CounterReactor()
        subscriptions.append(reactor.state.subscribe(onNext: { total &+= $0.count }))
        live.append(reactor)
      }
      // Let what the creation started settle before measuring.
      sleep(seconds: 0.2)
      let cpuBefore = processCPUSeconds()
      let wallBefore = nanoseconds()
      sleep(seconds: seconds)
      let cpu = processCPUSeconds() - cpuBefore
      let wall = Double(nanoseconds() - wallBefore) / 1e9
      for subscription in subscriptions { subscription.dispose() }
      blackHole(total)
      withExtendedLifetime(live) {}
      return cpu / wall * 100
    },
    targets: [.cpuPercent(1)])
}

/// `reactor_action_read_<n>threads`: `n` threads (2 cores here), each reading `reactor.action`
/// of a reactor of its own; one op is one read. Against the same reads of a property behind a
/// lock of each object's own: what the reads cost beyond that is contention between the
/// threads (issue 33, item 2). With one lock for the reactors' storage table: 57.9 ns with 1
/// thread, 108.9 ns with 2 (on 2 cores, where reads without contention would take about half
/// the 1-thread time); with the table striped, each thread reads at full speed.
func reactorActionReads(threads: Int) -> Workload {
  Workload(
    name: "reactor_action_read_\(threads)threads",
    subject: Measured {
      let reactors = (0..<threads).map { _ in SendableBox(CounterReactor()) }
      for box in reactors { _ = box.value.state }  // wired, as a bound view's reactor is
      return { count in
        let perThread = max(1, count / threads)
        let found = LockedTotal()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
          let reactor = reactors[index].value
          var same = 0
          let first = reactor.action
          for _ in 0..<perThread where reactor.action === first { same &+= 1 }
          found.add(same)
        }
        return found.value
      }
    },
    baseline: Measured {
      let objects = (0..<threads).map { _ in LockedProperty() }
      return { count in
        let perThread = max(1, count / threads)
        let found = LockedTotal()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
          let object = objects[index]
          var same = 0
          let first = object.value
          for _ in 0..<perThread where object.value === first { same &+= 1 }
          found.add(same)
        }
        return found.value
      }
    },
    targets: [])
}

/// A value handed to other threads as is (a reactor the benchmark owns, read on one thread
/// each).
struct SendableBox<Value>: @unchecked Sendable {
  // Safety: each box is read by one thread at a time (one per `concurrentPerform` index).
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A sum several threads add to.
final class LockedTotal: @unchecked Sendable {
  // Safety: `total` is guarded by `lock`.
  private let lock = BaselineLock()
  private var total = 0

  func add(_ amount: Int) {
    lock.lock()
    total &+= amount
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return total
  }
}

/// An object whose reference-typed property is read behind a lock of its own.
final class LockedProperty: @unchecked Sendable {
  // Safety: `stored` is guarded by `lock`.
  private let lock = BaselineLock()
  private let stored = BaselineLock()

  var value: AnyObject {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
