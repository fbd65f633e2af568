import Hummingbird

/// 400 with the code as the message (`CODE : detail`), as Firebase answers; the Admin SDKs key on the message.
extension ProviderConfigError: HTTPResponseError {
    package var status: HTTPResponse.Status { .badRequest }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try APIError(status: status, message: detail.map { "\(code) : \($0)" } ?? code).response(from: request, context: context)
    }
}
