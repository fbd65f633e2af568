import Hummingbird
import LatchkeyDomain

/// A rate-limit refusal as Firebase words it (400 `TOO_MANY_ATTEMPTS_TRY_LATER`, or `QUOTA_EXCEEDED` once the day's
/// budget of texts is spent), plus `Retry-After`.
extension RateLimited: HTTPResponseError {
    package var status: HTTPResponse.Status { .badRequest }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var error = APIError(status: status, message: rule == .textBudget ? "QUOTA_EXCEEDED" : "TOO_MANY_ATTEMPTS_TRY_LATER")
        error.headers[.retryAfter] = String(retryAfter)
        return try error.response(from: request, context: context)
    }
}
