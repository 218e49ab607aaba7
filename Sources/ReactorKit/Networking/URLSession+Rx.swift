import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The errors of the `URLSession.rx` requests, as in RxCocoa.
public enum RxCocoaURLError: Swift.Error, CustomDebugStringConvertible {
  /// The session returned neither data and a response nor an error.
  case unknown
  /// The response is not an HTTP response.
  case nonHTTPResponse(response: URLResponse)
  /// The status code is outside `200..<300`.
  case httpRequestFailed(response: HTTPURLResponse, data: Data?)
  /// The body could not be decoded.
  case deserializationError(error: Swift.Error)

  public var debugDescription: String {
    switch self {
    case .unknown:
      return "Unknown error has occurred."
    case .nonHTTPResponse(let response):
      return "Response is not NSHTTPURLResponse `\(response)`."
    case .httpRequestFailed(let response, _):
      return "HTTP request failed with `\(response.statusCode)`."
    case .deserializationError(let error):
      return "Error during deserialization of the response: \(error)"
    }
  }
}

extension Reactive where Base: URLSession {
  /// Sends `request` when subscribed and emits the HTTP response and its body, whatever the
  /// status code, then completes. Disposing the subscription cancels the request.
  ///
  /// - Parameter request: The request to send, once per subscription.
  /// - Returns: The response and data; an error for a transport failure, or
  ///   ``RxCocoaURLError/nonHTTPResponse(response:)`` for a response that is not HTTP.
  public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
    // The session is thread-safe; the observer is used only by the completion handler, which
    // runs once.
    let session = UncheckedSendable(base)
    return Observable.create { observer in
      let observer = UncheckedSendable(observer)
      let task = session.value.dataTask(with: request) { data, response, error in
        if let error {
          observer.value.on(.error(error))
          return
        }
        guard let response, let data else {
          observer.value.on(.error(RxCocoaURLError.unknown))
          return
        }
        guard let http = response as? HTTPURLResponse else {
          observer.value.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
          return
        }
        observer.value.on(.next((http, data)))
        observer.value.on(.completed)
      }
      task.resume()
      let cancel = UncheckedSendable(task)
      return Disposables.create { cancel.value.cancel() }
    }
  }

  /// Sends `request` when subscribed and emits the body of a successful response (status
  /// `200..<300`), then completes.
  ///
  /// - Returns: The data; ``RxCocoaURLError/httpRequestFailed(response:data:)`` for another
  ///   status code.
  public func data(request: URLRequest) -> Observable<Data> {
    response(request: request).map { response, data -> Data in
      guard 200..<300 ~= response.statusCode else {
        throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
      }
      return data
    }
  }

  /// Sends `request` when subscribed and emits the JSON object of a successful response's
  /// body (`JSONSerialization`), then completes.
  ///
  /// - Returns: The decoded object; ``RxCocoaURLError/deserializationError(error:)`` when
  ///   the body is not JSON.
  public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = [])
    -> Observable<Any>
  {
    data(request: request).map { data -> Any in
      do {
        return try JSONSerialization.jsonObject(with: data, options: options)
      } catch {
        throw RxCocoaURLError.deserializationError(error: error)
      }
    }
  }

  /// Sends a GET request for `url` when subscribed and emits the JSON object of a successful
  /// response's body; see ``json(request:options:)``.
  public func json(url: URL) -> Observable<Any> {
    json(request: URLRequest(url: url))
  }
}
