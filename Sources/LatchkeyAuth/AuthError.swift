import Foundation
import LatchkeyWire

/// A failed call: Firebase's error code, the service's own code and detail, and what Firebase's SDK attaches to
/// some codes (the address and the credential to link for `accountExistsWithDifferentCredential`, the resolver for
/// `secondFactorRequired`).
public struct AuthError: Error, Sendable, CustomStringConvertible {
    public let code: AuthErrorCode
    /// The service's code, such as `INVALID_OOB_CODE`, or `nil` for an error the library raised itself.
    public let serverCode: String?
    /// The service's detail after the code (or the library's), for people, never for `switch`.
    public let message: String?
    /// The HTTP status of the refusal, when the service refused.
    public let status: Int?
    /// For `accountExistsWithDifferentCredential`: the address that already has an account.
    public let email: String?
    /// For `accountExistsWithDifferentCredential`: the credential to link once signed in another way. For
    /// `credentialAlreadyInUse` when linking a number another account has: a credential of that number, which signs
    /// in to that account (Firebase's `AuthErrorUserInfoUpdatedCredentialKey`); `updatedPhoneCredential` gives it typed.
    public let updatedCredential: AuthCredential?
    /// For `secondFactorRequired`: finishes the sign-in with a second factor.
    public let resolver: MultiFactorResolver?

    /// `updatedCredential` when it is a number's (`credentialAlreadyInUse` from linking a phone).
    public var updatedPhoneCredential: PhoneAuthCredential? {
        guard case .phone(let credential) = updatedCredential?.proof else { return nil }
        return credential
    }

    init(
        _ code: AuthErrorCode, message: String? = nil, serverCode: String? = nil, status: Int? = nil, email: String? = nil,
        updatedCredential: AuthCredential? = nil, resolver: MultiFactorResolver? = nil
    ) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
        self.status = status
        self.email = email
        self.updatedCredential = updatedCredential
        self.resolver = resolver
    }

    /// The service's refusal `body` (Google's error envelope, its message `CODE` or `CODE : detail`).
    init(refusal body: Data, status: Int) {
        guard let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: body) else {
            // A proxy's page, not the service's answer.
            self.init(status == 429 ? .tooManyRequests : .internalError, message: "HTTP \(status) without an error envelope", status: status)
            return
        }
        let parts = envelope.error.message.split(separator: " : ", maxSplits: 1).map(String.init)
        // Google's own refusals (a wrong API key) put the code in `details` and a sentence in `message`.
        if let reason = envelope.error.details?.first?.reason, parts.count == 1, AuthErrorCode(serverCode: parts[0]) == .internalError {
            self.init(AuthErrorCode(serverCode: reason), message: envelope.error.message, serverCode: reason, status: status)
            return
        }
        // A code is one word of capitals (`INVALID_OOB_CODE`); anything else is a sentence, kept as the message.
        guard let serverCode = parts.first, serverCode.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }), !serverCode.isEmpty else {
            self.init(.internalError, message: envelope.error.message, status: status)
            return
        }
        self.init(AuthErrorCode(serverCode: serverCode), message: parts.count > 1 ? parts[1] : nil, serverCode: serverCode, status: status)
    }

    public var description: String {
        var text = "AuthError.\(code.rawValue)"
        if let serverCode { text += " (\(serverCode))" }
        if let message { text += ": \(message)" }
        return text
    }
}
