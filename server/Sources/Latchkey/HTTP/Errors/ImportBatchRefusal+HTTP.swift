import Hummingbird

/// 400 `INVALID_ARGUMENT` with Firebase's code as the message; the Admin SDKs key on it.
extension ImportBatchRefusal: HTTPResponseError {
    package var status: HTTPResponse.Status { .badRequest }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try APIError.invalidArgument(message).response(from: request, context: context)
    }
}
