extension String {
  /// The string with spaces added in front up to `width` characters (right-aligned).
  public func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
