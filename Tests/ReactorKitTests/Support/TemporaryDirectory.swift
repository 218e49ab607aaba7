import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// by ``remove()``.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
    var template = Array(base.appendingPathComponent("ReactorKitTests-XXXXXX").path.utf8CString)
    let created = unsafe template.withUnsafeMutableBufferPointer { unsafe mkdtemp($0.baseAddress!) }
    guard let created = unsafe created else {
      throw CocoaError(.fileWriteUnknown)
    }
    url = unsafe URL(fileURLWithPath: String(cString: created), isDirectory: true)
  }

  /// The URL of `name` inside the directory.
  func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// The names of the files in the directory, sorted.
  func contents() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  func remove() {
    unsafe chmod(url.path, 0o700)
    try? FileManager.default.removeItem(at: url)
  }
}

/// The permission bits of the file at `url`.
func permissions(of url: URL) -> Int? {
  var status = stat()
  guard unsafe stat(url.path, &status) == 0 else { return nil }
  return Int(status.st_mode & 0o777)
}
