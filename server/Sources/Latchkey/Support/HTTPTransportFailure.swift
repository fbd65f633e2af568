import AsyncHTTPClient
import NIOCore
import NIOPosix

/// A short name for an outgoing HTTP call's transport failure (an identity provider, an SMS gateway), for the error a
/// caller sees and the logs: never the URL, whose path or query may carry a code or a token.
func describeTransportFailure(_ error: any Error) -> String {
    if let error = error as? DeadlineExceeded { return error.description }
    if let error = error as? HTTPClientError {
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer in time"
        case .remoteConnectionClosed: return "connection closed"
        default: break
        }
    }
    if error is NIOTooManyBytesError { return "answer too large" }
    if error is NIOConnectionError || error is IOError { return "could not connect" }
    return "no HTTP answer"
}
