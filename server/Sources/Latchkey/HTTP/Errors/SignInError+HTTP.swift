import Hummingbird
import LatchkeyDomain

/// The single place where domain refusals become HTTP answers: 400 with the Identity Toolkit code
/// as the message (`CODE : detail` where Firebase adds one), which is what Firebase clients switch on.
extension SignInError: HTTPResponseError {
    package var status: HTTPResponse.Status { .badRequest }

    package var message: String {
        detail.map { "\(code) : \($0)" } ?? code
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try APIError(status: status, message: message).response(from: request, context: context)
    }
}
