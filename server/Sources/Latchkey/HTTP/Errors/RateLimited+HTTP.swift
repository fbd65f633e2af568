import Hummingbird
import LatchkeyDomain

/// A rate-limit refusal as Firebase words it (400 `TOO_MANY_ATTEMPTS_TRY_LATER`), plus `Retry-After`.
extension RateLimited: HTTPResponseError {
    package var status: HTTPResponse.Status { .badRequest }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var error = APIError(status: status, message: "TOO_MANY_ATTEMPTS_TRY_LATER")
        error.headers[.retryAfter] = String(retryAfter)
        return try error.response(from: request, context: context)
    }
}
