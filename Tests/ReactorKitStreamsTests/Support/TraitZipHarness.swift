import ReactorKitStreams
import ReactorKitTesting

/// The setup shared by the every-arity tests of `Single.zip` and `Maybe.zip`: cold sources in
/// virtual time, made into traits by `convert` and zipped by `zip` (with a result selector,
/// or into tuples), for every arity from 2 to 8 both ways.
struct TraitZipHarness<Trait> {
  /// Makes a trait of a source.
  let convert: (TestableObservable<Int>) -> Trait
  /// Zips the traits into an array of their elements: into tuples when `tuples` is true,
  /// with a result selector otherwise.
  let zip: (_ traits: [Trait], _ tuples: Bool) -> Observable<[Int]>

  /// Zips `arity` cold sources; source `index` (0-based) ends at 10 * (index + 1) with
  /// `end(index)`.
  func run(
    arity: Int, tuples: Bool, end: (Int) -> [Recorded<Event<Int>>]
  ) -> (TestableObserver<[Int]>, [TestableObservable<Int>]) {
    let scheduler = TestScheduler(initialClock: 0)
    let sources = (0..<arity).map { scheduler.createColdObservable(end($0)) }
    let traits = sources.map(convert)
    let observer = scheduler.start { zip(traits, tuples) }
    return (observer, sources)
  }

  /// Runs `test` for every arity from 2 to 8, with a result selector and into tuples, with a
  /// description of the case for assertion messages.
  func forEveryArity(_ test: (_ arity: Int, _ tuples: Bool, _ context: String) -> Void) {
    for arity in 2...8 {
      for tuples in [false, true] {
        test(arity, tuples, "arity \(arity), tuples \(tuples)")
      }
    }
  }
}
