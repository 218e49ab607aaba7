/// What ``ObservableType/timeCountChunks(timeSpan:count:scheduler:)`` tells `buffer` and
/// `window`: a chunk opens, receives an element, or closes.
enum ChunkCommand<Element> {
  case open
  case add(Element)
  case close
}

/// The lock-guarded state of a chunking subscription.
struct ChunkState {
  /// Identifies the current chunk, so a timer of an earlier chunk does nothing.
  var chunk = 0
  /// Elements in the current chunk.
  var count = 0
  var finished = false

  /// Closes the current chunk and opens the next; returns the new chunk's identity.
  mutating func rollOver<Element>(_ emit: (Event<ChunkCommand<Element>>) -> Void) -> Int {
    chunk &+= 1
    count = 0
    emit(.next(.close))
    emit(.next(.open))
    return chunk
  }
}

extension ObservableType {
  /// The one core of `buffer(timeSpan:count:scheduler:)` and `window(timeSpan:count:scheduler:)`:
  /// cuts the source into chunks that close when they hold `count` elements or `timeSpan`
  /// after they opened, whichever comes first, as commands delivered serially.
  ///
  /// A chunk opens at subscription and after each close; the last one closes before the
  /// completion. An error is forwarded as is.
  func timeCountChunks(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType)
    -> Observable<ChunkCommand<Element>>
  {
    precondition(count > 0, "buffer/window need a count of at least 1.")
    let source = asObservable()
    return Observable { observer in
      let serial = SerialSink(Sink(observer), state: ChunkState())
      let timer = SerialDisposable()
      serial.sink.extra = timer
      func startTimer(for chunk: Int) {
        timer.disposable = scheduler.scheduleRelative(chunk, dueTime: timeSpan) { chunk in
          let next = serial.transition { state, emit -> Int? in
            guard !state.finished, state.chunk == chunk else { return nil }
            return state.rollOver(emit)
          }
          if let next { startTimer(for: next) }
          return Disposables.create()
        }
      }
      serial.transition { _, emit in emit(.next(.open)) }
      startTimer(for: 0)
      serial.sink.setUpstream(
        source.subscribe(
          AnyObserver { event in
            let next = serial.transition { state, emit -> Int? in
              guard !state.finished else { return nil }
              switch event {
              case .next(let element):
                emit(.next(.add(element)))
                state.count += 1
                return state.count == count ? state.rollOver(emit) : nil
              case .error(let error):
                state.finished = true
                emit(.error(error))
              case .completed:
                state.finished = true
                emit(.next(.close))
                emit(.completed)
              }
              return nil
            }
            if let next { startTimer(for: next) }
          }))
      return serial.sink
    }
  }
}
