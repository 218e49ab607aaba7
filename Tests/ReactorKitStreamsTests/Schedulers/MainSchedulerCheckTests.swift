import Foundation
import ReactorKitStreams
import Testing

@Suite struct MainSchedulerCheckTests {
  @Test @MainActor func ensureRunningOnMainThread_passesOnTheMainQueue() {
    MainScheduler.ensureRunningOnMainThread()
    MainScheduler.ensureRunningOnMainThread(errorMessage: "on main")
    #expect(MainScheduler.isMainThread)
  }

  @Test func ensureRunningOnMainThread_stopsOnABackgroundThread() async {
    await #expect(processExitsWith: .failure) {
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        MainScheduler.ensureRunningOnMainThread(errorMessage: "off main")
        done.signal()
      }
      done.wait()
    }
  }
}
