import Dispatch
import ReactorKitStreams
import ReactorKitTesting
import Testing

@Suite struct BlockingSwiftTestingTests {
  @Test func toBlocking_offTheMainQueueWaitsForMainQueueDelivery() throws {
    // given
    let source = Observable.of(1, 2).observe(on: MainScheduler.asyncInstance)
    // when
    let values = try source.toBlocking(timeout: 2).toArray()
    // then
    #expect(values == [1, 2])
  }
}
