import Hummingbird
import LatchkeyDomain

/// APNs or the captcha provider without a usable answer in time, as Google answers a backend that cannot serve now:
/// 503 `UNAVAILABLE`, which clients may retry, naming the party at fault and nothing of its answer.
extension AppVerificationUnavailable: HTTPResponseError {
    package var status: HTTPResponse.Status { .serviceUnavailable }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var error = APIError(
            status: status, message: "The service is currently unavailable: \(service) did not answer in time. Try again shortly.",
            reason: "backendError", rpcStatus: "UNAVAILABLE")
        error.headers[.retryAfter] = "5"
        return try error.response(from: request, context: context)
    }
}
