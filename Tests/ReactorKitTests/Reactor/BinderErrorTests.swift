import ReactorKit
import Testing

@Suite struct BinderErrorTests {
  #if DEBUG
    @Test func binder_errorStopsTheProgramInDebugBuilds() async {
      await #expect(processExitsWith: .failure) {
        final class Target {}
        let target = Target()
        let binder = Binder<Int>(target, scheduler: CurrentThreadScheduler.instance) { _, _ in }
        binder.onError(TestError())
      }
    }
  #endif
}
