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

/// A one-line explanation of an encoding failure for error messages, without the value that
/// failed (an `EncodingError` carries it, and its description would print it, secrets and
/// all): where it happened, the value's type and the encoder's message.
func describeEncodingError(_ error: any Error) -> String {
  guard let error = error as? EncodingError else {
    return "\(type(of: error)) was thrown"
  }
  switch error {
  case .invalidValue(let value, let context):
    let path = context.codingPath.map { key in
      key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
    }.joined()
    var text =
      (path.isEmpty ? "at the top level" : "at \(path)")
      + ", a value of type \(type(of: value)) can't be encoded: \(context.debugDescription)"
    if let underlying = context.underlyingError {
      text += " (\(type(of: underlying)))"
    }
    return text
  @unknown default:
    return "\(type(of: error)) was thrown"
  }
}
