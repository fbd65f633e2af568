import Hummingbird
import LatchkeyDomain

/// Saturated password hashing as Google answers an overloaded backend: 503 `UNAVAILABLE`, which clients may retry,
/// with `Retry-After` and a message that says what was busy.
extension PasswordHashingBusy: HTTPResponseError {
    package var status: HTTPResponse.Status { .serviceUnavailable }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var error = APIError(
            status: status, message: "The service is currently unavailable: too many password checks at once. Try again shortly.",
            reason: "backendError", rpcStatus: "UNAVAILABLE")
        error.headers[.retryAfter] = "1"
        return try error.response(from: request, context: context)
    }
}
