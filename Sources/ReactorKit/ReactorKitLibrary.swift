/// Facts about this library that recordings and bug reports carry.
public enum ReactorKitLibrary {
  /// The library's version, as a recording's header names it (`"library"`): `0.1.0-dev`
  /// until the first release.
  public static var version: String { "0.1.0-dev" }
}
