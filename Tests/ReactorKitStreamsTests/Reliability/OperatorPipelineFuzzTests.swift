import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Random pipelines of 2 to 6 operators run on an observable and, through a plain model of each
/// operator, on the same elements as a Swift array: the events must be the same.
final class OperatorPipelineFuzzTests: ResourceTestCase {
  func test_operatorPipeline_randomPipelinesMatchTheArrayModel() {
    for seed in StressConfiguration.seeds(300) {
      // given
      var generator = SeededRandomNumberGenerator(seed: seed)
      let source = randomSource(using: &generator)
      let stages = (0..<Int.random(in: 2...6, using: &generator)).map { _ in
        randomStage(using: &generator)
      }
      let expected = stages.reduce(source.events) { events, stage in stage.model(events) }
      let pipeline = stages.reduce(source.observable) { observable, stage in
        stage.apply(observable)
      }
      let description =
        "seed \(seed): \(source.name) → \(stages.map(\.name).joined(separator: " → "))"
      // when
      let first = source.run(pipeline)
      let second = source.run(pipeline)
      // then
      XCTAssertEqual(first, expected, description)
      XCTAssertEqual(second, expected, "\(description), second subscription")
    }
  }

  func test_operatorPipeline_disposingMidStreamStopsEveryStage_andReleasesIt() {
    for seed in StressConfiguration.seeds(100) {
      // given
      let start = Resources.total
      // when
      let (lateEvents, stages) = runDisposedMidStream(seed: seed)
      // then
      XCTAssertEqual(lateEvents, 0, "seed \(seed): \(stages)")
      XCTAssertEqual(Resources.total, start, "seed \(seed): \(stages)")
    }
  }

  /// Subscribes a random pipeline on a subject, disposes it after a few elements and keeps
  /// emitting; returns the events that arrived after `dispose` returned.
  private func runDisposedMidStream(seed: UInt64) -> (Int, [String]) {
    var generator = SeededRandomNumberGenerator(seed: seed)
    let subject = PublishSubject<Int>()
    let stages = (0..<Int.random(in: 2...6, using: &generator)).map { _ in
      randomStage(using: &generator)
    }
    let pipeline = stages.reduce(subject.asObservable()) { $1.apply($0) }
    var disposed = false
    var lateEvents = 0
    let subscription = pipeline.subscribe { _ in
      if disposed { lateEvents += 1 }
    }
    for value in 0..<Int.random(in: 0...8, using: &generator) { subject.onNext(value % 10) }
    subscription.dispose()
    disposed = true
    for value in 0..<4 { subject.onNext(value) }
    subject.onCompleted()
    XCTAssertFalse(subject.hasObservers, "seed \(seed)")
    return (lateEvents, stages.map(\.name))
  }

  // MARK: - Sources

  private struct Source {
    let name: String
    let events: [Event<Int>]
    let observable: Observable<Int>
    /// Subscribes to `pipeline`, drives the source if needed, and returns what arrived.
    let run: (Observable<Int>) -> [Event<Int>]
  }

  private func randomSource(using generator: inout SeededRandomNumberGenerator) -> Source {
    let elements = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
      Int.random(in: 0..<10, using: &generator)
    }
    let fails = Int.random(in: 0..<4, using: &generator) == 0
    let terminal: Event<Int> = fails ? .error(TestError(1)) : .completed
    let events = elements.map { Event.next($0) } + [terminal]
    let collect: (Observable<Int>, () -> Void) -> [Event<Int>] = { pipeline, drive in
      var received: [Event<Int>] = []
      let subscription = pipeline.subscribe { received.append($0) }
      drive()
      subscription.dispose()
      return received
    }
    if Bool.random(using: &generator) {
      var observable = Observable.from(elements)
      if fails { observable = observable.concat(Observable<Int>.error(TestError(1))) }
      return Source(
        name: "from(\(elements)\(fails ? ", error" : ""))", events: events,
        observable: observable, run: { collect($0, {}) })
    }
    // A fresh subject per run, because a terminated subject replays its terminal event.
    let current = SubjectBox()
    return Source(
      name: "subject(\(elements)\(fails ? ", error" : ""))", events: events,
      observable: Observable.deferred { current.subject.asObservable() },
      run: { pipeline in
        current.subject = PublishSubject()
        return collect(pipeline) { for event in events { current.subject.on(event) } }
      })
  }

  private final class SubjectBox {
    var subject = PublishSubject<Int>()
  }

  // MARK: - Stages

  private struct Stage {
    let name: String
    let apply: (Observable<Int>) -> Observable<Int>
    let model: ([Event<Int>]) -> [Event<Int>]
  }

  private func randomStage(using generator: inout SeededRandomNumberGenerator) -> Stage {
    switch Int.random(in: 0..<19, using: &generator) {
    case 0:
      let factor = Int.random(in: 1...5, using: &generator)
      let offset = Int.random(in: -3...3, using: &generator)
      let transform: (Int) -> Int = { ($0 * factor + offset) % 10 }
      return Stage(
        name: "map(*\(factor)+\(offset))", apply: { $0.map(transform) },
        model: { mapElements($0, transform) })
    case 1:
      let modulus = Int.random(in: 2...4, using: &generator)
      let keep: (Int) -> Bool = { $0 % modulus != 0 }
      return Stage(
        name: "filter(%\(modulus))", apply: { $0.filter(keep) },
        model: { events in
          events.filter { event in event.element.map(keep) ?? true }
        })
    case 2:
      let seed = Int.random(in: 0...3, using: &generator)
      let accumulate: (Int, Int) -> Int = { ($0 + $1) % 10 }
      return Stage(
        name: "scan(\(seed))", apply: { $0.scan(seed, accumulator: accumulate) },
        model: { events in
          var total = seed
          return mapElements(events) { value in
            total = accumulate(total, value)
            return total
          }
        })
    case 3:
      let count = Int.random(in: 0...6, using: &generator)
      return Stage(name: "take(\(count))", apply: { $0.take(count) }, model: { take($0, count) })
    case 4:
      let count = Int.random(in: 0...6, using: &generator)
      return Stage(
        name: "skip(\(count))", apply: { $0.skip(count) },
        model: { events in
          var skipped = 0
          return events.filter { event in
            guard event.element != nil, skipped < count else { return true }
            skipped += 1
            return false
          }
        })
    case 5:
      return Stage(
        name: "distinctUntilChanged", apply: { $0.distinctUntilChanged() },
        model: { distinct($0, key: { $0 }) })
    case 6:
      let modulus = Int.random(in: 2...3, using: &generator)
      let key: (Int) -> Int = { $0 % modulus }
      return Stage(
        name: "distinctUntilChanged(%\(modulus))",
        apply: { $0.distinctUntilChanged(key) }, model: { distinct($0, key: key) })
    case 7:
      let prefix = (0..<Int.random(in: 1...2, using: &generator)).map { _ in
        Int.random(in: 0..<10, using: &generator)
      }
      return Stage(
        name: "startWith(\(prefix))",
        apply: { observable in
          prefix.count == 1
            ? observable.startWith(prefix[0]) : observable.startWith(prefix[0], prefix[1])
        },
        model: { prefix.map { Event.next($0) } + $0 })
    case 8:
      let count = Int.random(in: 0...4, using: &generator)
      return Stage(
        name: "takeLast(\(count))", apply: { $0.takeLast(count) },
        model: { events in
          guard case .completed? = events.last else { return [events.last!] }
          return Array(events.dropLast().suffix(count)) + [.completed]
        })
    case 9:
      let seed = Int.random(in: 0...3, using: &generator)
      let accumulate: (Int, Int) -> Int = { ($0 + $1) % 10 }
      return Stage(
        name: "reduce(\(seed))", apply: { $0.reduce(seed, accumulator: accumulate) },
        model: { events in
          guard case .completed? = events.last else { return [events.last!] }
          let total = events.compactMap(\.element).reduce(seed, accumulate)
          return [.next(total), .completed]
        })
    case 10:
      return Stage(
        name: "enumerated", apply: { $0.enumerated().map { ($0.index * 3 + $0.element) % 10 } },
        model: { events in
          var index = 0
          return mapElements(events) { value in
            defer { index += 1 }
            return (index * 3 + value) % 10
          }
        })
    case 11:
      let limit = Int.random(in: 2...9, using: &generator)
      let predicate: (Int) -> Bool = { $0 < limit }
      return Stage(
        name: "take(while: <\(limit))", apply: { $0.take(while: predicate) },
        model: { events in
          var result: [Event<Int>] = []
          for event in events {
            if let value = event.element, !predicate(value) { return result + [.completed] }
            result.append(event)
          }
          return result
        })
    case 12:
      let limit = Int.random(in: 2...9, using: &generator)
      let predicate: (Int) -> Bool = { $0 < limit }
      return Stage(
        name: "skip(while: <\(limit))", apply: { $0.skip(while: predicate) },
        model: { events in
          var skipping = true
          return events.filter { event in
            guard skipping, let value = event.element else { return true }
            skipping = predicate(value)
            return !skipping
          }
        })
    case 13:
      let index = Int.random(in: 0...4, using: &generator)
      return Stage(
        name: "element(at: \(index))", apply: { $0.element(at: index) },
        model: { events in
          var seen = 0
          for event in events {
            guard let value = event.element else {
              if case .completed = event { return [.error(RxError.argumentOutOfRange)] }
              return [event]
            }
            if seen == index { return [.next(value), .completed] }
            seen += 1
          }
          return []
        })
    case 14:
      let transform: (Int) -> Int? = { $0 % 3 == 0 ? nil : $0 / 2 }
      return Stage(
        name: "compactMap", apply: { $0.compactMap(transform) },
        model: { events in
          events.compactMap { event in
            guard let value = event.element else { return event }
            return transform(value).map { Event.next($0) }
          }
        })
    case 15:
      let failing = Int.random(in: 0..<10, using: &generator)
      let transform: (Int) throws -> Int = { value in
        if value == failing { throw TestError(2) }
        return value
      }
      return Stage(
        name: "map(throws at \(failing))", apply: { $0.map(transform) },
        model: { events in
          var result: [Event<Int>] = []
          for event in events {
            if event.element == failing { return result + [.error(TestError(2))] }
            result.append(event)
          }
          return result
        })
    case 16:
      let fallback = Int.random(in: 0..<10, using: &generator)
      return Stage(
        name: "catchAndReturn(\(fallback))", apply: { $0.catchAndReturn(fallback) },
        model: { events in
          guard case .error? = events.last else { return events }
          return events.dropLast() + [.next(fallback), .completed]
        })
    case 17:
      let stop = Int.random(in: 0..<10, using: &generator)
      return Stage(
        name: "take(until: ==\(stop), inclusive)",
        apply: { $0.take(until: { $0 == stop }, behavior: .inclusive) },
        model: { events in
          var result: [Event<Int>] = []
          for event in events {
            result.append(event)
            if event.element == stop { return result + [.completed] }
          }
          return result
        })
    default:
      return Stage(
        name: "flatMap(two elements)",
        apply: { observable in
          observable.flatMap { value in
            Observable<Int>.create { observer in
              observer.onNext(value)
              observer.onNext((value + 1) % 10)
              observer.onCompleted()
              return Disposables.create()
            }
          }
        },
        model: { events in
          events.flatMap { event -> [Event<Int>] in
            guard let value = event.element else { return [event] }
            return [.next(value), .next((value + 1) % 10)]
          }
        })
    }
  }
}

// MARK: - Model helpers

private func mapElements(_ events: [Event<Int>], _ transform: (Int) -> Int) -> [Event<Int>] {
  events.map { event in
    guard let value = event.element else { return event }
    return .next(transform(value))
  }
}

private func take(_ events: [Event<Int>], _ count: Int) -> [Event<Int>] {
  guard count > 0 else { return [.completed] }
  var result: [Event<Int>] = []
  var taken = 0
  for event in events {
    result.append(event)
    guard event.element != nil else { return result }
    taken += 1
    if taken == count { return result + [.completed] }
  }
  return result
}

private func distinct(_ events: [Event<Int>], key: (Int) -> Int) -> [Event<Int>] {
  var last: Int?
  return events.filter { event in
    guard let value = event.element else { return true }
    defer { last = key(value) }
    return last != key(value)
  }
}
