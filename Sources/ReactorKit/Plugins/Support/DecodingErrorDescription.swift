/// A one-line explanation of a decoding failure for error messages: where in the document
/// it happened and what was wrong.
func describeDecodingError(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return String(describing: error) }
  func location(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { key in
      key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
    }.joined()
    return path.isEmpty ? "at the top level" : "at \(path)"
  }
  func detail(_ context: DecodingError.Context) -> String {
    var text = context.debugDescription
    if let underlying = context.underlyingError {
      text += " (\(underlying))"
    }
    return text
  }
  switch error {
  case .typeMismatch(let type, let context):
    return "\(location(context)), expected a value of type \(type): \(detail(context))"
  case .valueNotFound(let type, let context):
    return "\(location(context)), a value of type \(type) is missing: \(detail(context))"
  case .keyNotFound(let key, let context):
    return "\(location(context)), the key \"\(key.stringValue)\" is missing"
  case .dataCorrupted(let context):
    return "\(location(context)): \(detail(context))"
  @unknown default:
    return String(describing: error)
  }
}
