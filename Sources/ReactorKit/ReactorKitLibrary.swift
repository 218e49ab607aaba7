/// Facts about this library that recordings and bug reports carry, and its process-wide
/// housekeeping.
public enum ReactorKitLibrary {
  /// The library's version, as a recording's header names it (`"library"`): `0.1.0-dev`
  /// until the first release.
  public static var version: String { "0.1.0-dev" }

  /// Releases now the streams and state of every reactor and view that has been freed.
  ///
  /// A reactor's streams live in a process-wide table until the reactor is gone. On Apple
  /// platforms they are released when the reactor is deinitialised. On Linux, which has no
  /// such hook, sweeps look at a reactor for about 3 s after its last use, so one freed later
  /// keeps its streams until the table next scans itself. Leak checks call this before they
  /// count live objects (`ResourceTestCase` does); apps need not call it.
  ///
  /// Costs one pass over the table; thread-safe.
  public static func releaseFreedReactors() {
    StorageTables.reactors.purge()
    StorageTables.views.purge()
  }
}
