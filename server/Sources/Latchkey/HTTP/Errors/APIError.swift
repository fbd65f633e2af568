import Foundation
import Hummingbird
import LatchkeyWire

/// An error answered in the Google API envelope that Firebase clients parse:
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message":…,"domain":"global","reason":…}],"status":…}}`.
package struct APIError: Error, HTTPResponseError, Sendable {
    package let status: HTTPResponse.Status
    package let message: String
    package let reason: String
    package let rpcStatus: String?
    package var headers: HTTPFields = [:]
    /// Google's machine-readable `details`, omitted when empty as in Google's own answers.
    var details: [ErrorEnvelope.ErrorInfo] = []

    package init(status: HTTPResponse.Status, message: String, reason: String = "invalid", rpcStatus: String? = nil) {
        self.status = status
        self.message = message
        self.reason = reason
        self.rpcStatus = rpcStatus
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let envelope = ErrorEnvelope(
            error: .init(code: status.code, message: message, reason: reason, status: rpcStatus, details: details.isEmpty ? nil : details))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=UTF-8"
        let body = try JSONEncoder.api.encode(envelope)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension APIError {
    static let missingAPIKey = APIError(
        status: .forbidden, message: "The request is missing a valid API key.", reason: "forbidden", rpcStatus: "PERMISSION_DENIED")
    static let invalidAPIKey: APIError = {
        var error = APIError(
            status: .badRequest, message: "API key not valid. Please pass a valid API key.", reason: "keyInvalid", rpcStatus: "INVALID_ARGUMENT")
        error.details = [.init(reason: "API_KEY_INVALID", metadata: ["service": "identitytoolkit.googleapis.com"])]
        return error
    }()
    /// The rest of the body is not read, so the connection cannot carry another request.
    static let payloadTooLarge: APIError = {
        var error = APIError(
            status: .contentTooLarge, message: "Request payload size exceeds the limit: 65536 bytes.", reason: "badRequest",
            rpcStatus: "INVALID_ARGUMENT")
        error.headers[.connection] = "close"
        return error
    }()
    /// The rest of the request is not read, so the connection cannot carry another one.
    static let requestTimeout: APIError = {
        var error = APIError(status: .requestTimeout, message: "The request body did not arrive in time.", reason: "badRequest", rpcStatus: "DEADLINE_EXCEEDED")
        error.headers[.connection] = "close"
        return error
    }()
    /// The body's chunked framing is broken, or the client stopped sending it: where the next request would start is
    /// unknown, so the connection closes.
    static let unreadableBody: APIError = {
        var error = APIError(status: .badRequest, message: "The request body could not be read.", reason: "badRequest", rpcStatus: "INVALID_ARGUMENT")
        error.headers[.connection] = "close"
        return error
    }()
    /// The database is away: the client may try again, as it would after Google's own 503.
    static let unavailable = APIError(
        status: .serviceUnavailable, message: "The service is currently unavailable.", reason: "backendError", rpcStatus: "UNAVAILABLE")
    static let internalError = APIError(status: .internalServerError, message: "Internal error encountered.", reason: "backendError", rpcStatus: "INTERNAL")

    /// A request Identity Toolkit refuses as a whole: `message` is its code, and a detail after " : ".
    static func invalidArgument(_ message: String) -> APIError {
        APIError(status: .badRequest, message: message, rpcStatus: "INVALID_ARGUMENT")
    }

    static func invalidJSON(_ detail: String) -> APIError {
        APIError(status: .badRequest, message: "Invalid JSON payload received. \(detail)", rpcStatus: "INVALID_ARGUMENT")
    }

    /// Hummingbird's own errors (unknown route, wrong method, …) in our envelope.
    init(_ error: HTTPError) {
        let (reason, rpcStatus): (String, String?) =
            switch error.status {
            case .notFound: ("notFound", "NOT_FOUND")
            case .methodNotAllowed: ("methodNotAllowed", "UNIMPLEMENTED")
            case .contentTooLarge: ("badRequest", "INVALID_ARGUMENT")
            default: ("invalid", nil)
            }
        self.init(status: error.status, message: error.body ?? error.status.reasonPhrase, reason: reason, rpcStatus: rpcStatus)
        headers = error.headers
    }
}
