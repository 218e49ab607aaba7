#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes the ring's events to one client as server-sent events, each as
/// `id: SEQ` and `data: JSON`, in sequence order, from its own cursor: a slow client delays no
/// one, and one that fell behind the ring gets a `gap` entry with the number it missed.
struct EventStream {
  let ring: EventRing
  let renderer: EventRenderer
  let keepAliveInterval: Duration
  /// How often a waiting stream looks for new events.
  var pollInterval: Duration = .milliseconds(25)
  /// The most events rendered and written in one go.
  var batchSize = 256

  /// The text of the events after `since` (and a gap entry first, if some were dropped),
  /// with the sequence number to continue from.
  func chunk(after since: UInt64) -> (text: String, cursor: UInt64, count: Int) {
    let batch = ring.events(after: since, limit: batchSize)
    var text = ""
    var cursor = since
    if batch.missed > 0 {
      cursor += batch.missed
      text +=
        "id: \(cursor)\ndata: \(EventRenderer.gapJSON(missed: batch.missed, before: cursor))\n\n"
    }
    for (event, cached) in zip(batch.events, batch.rendered) {
      let json: String
      if let cached {
        json = cached
      } else {
        json = renderer.json(event)
        ring.cacheRendering(json, for: event.sequence)
      }
      text += "id: \(event.sequence)\ndata: \(json)\n\n"
      cursor = event.sequence
    }
    return (text, cursor, batch.events.count + (batch.missed > 0 ? 1 : 0))
  }

  /// Streams to `writer` from `since` until the client goes away or the server stops; with
  /// `follow` false, only until it has written every event that exists now.
  func run(since: UInt64, follow: Bool, writer: StreamWriter) {
    guard writer.write("retry: 2000\n: reactorkit inspector\n\n") else { return }
    var cursor = since
    var lastWrite = ContinuousClock.now
    while true {
      // Checked on every pass too, so no path keeps a stream of a stopped server running.
      if writer.shouldStop() { return }
      let (text, next, count) = chunk(after: cursor)
      if count > 0 {
        guard writer.write(text) else { return }
        cursor = next
        lastWrite = .now
        continue
      }
      if !follow { return }
      // Wait for news, checking now and then that the client is still there.
      while ring.latestSequence <= cursor {
        if writer.shouldStop() { return }
        if ContinuousClock.now - lastWrite >= keepAliveInterval {
          guard writer.write(": keep-alive\n\n") else { return }
          lastWrite = .now
        }
        usleep(UInt32(pollInterval.milliseconds * 1_000))
      }
    }
  }
}
