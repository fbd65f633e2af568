import Foundation
import LatchkeyWire
import Testing
@testable import LatchkeyAuth

/// The service's refusals become Firebase's error codes, keeping the service's code and detail.
@Suite struct AuthErrorTests {
    static func refusal(_ message: String, status: Int = 400) throws -> AuthError {
        let envelope = ErrorEnvelope(error: .init(code: status, message: message, reason: "invalid"))
        return AuthError(refusal: try JSONEncoder().encode(envelope), status: status)
    }

    static let mapped: [(String, AuthErrorCode)] = [
        ("INVALID_OOB_CODE", .invalidActionCode), ("EXPIRED_OOB_CODE", .expiredActionCode), ("MISSING_OOB_CODE", .missingActionCode),
        ("USER_DISABLED", .userDisabled), ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
        ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse), ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
        ("API_KEY_INVALID", .invalidAPIKey), ("EMAIL_EXISTS", .emailAlreadyInUse), ("WEAK_PASSWORD", .weakPassword),
        ("INVALID_LOGIN_CREDENTIALS", .invalidCredential), ("INVALID_PASSWORD", .wrongPassword), ("EMAIL_NOT_FOUND", .userNotFound),
        ("USER_NOT_FOUND", .userNotFound), ("INVALID_EMAIL", .invalidEmail), ("MISSING_EMAIL", .missingEmail),
        ("TOKEN_EXPIRED", .userTokenExpired), ("INVALID_ID_TOKEN", .invalidUserToken), ("INVALID_REFRESH_TOKEN", .invalidUserToken),
        ("OPERATION_NOT_ALLOWED", .operationNotAllowed), ("UNAUTHORIZED_DOMAIN", .unauthorizedDomain),
        ("INVALID_CONTINUE_URI", .invalidContinueURI), ("MISSING_CONTINUE_URI", .missingContinueURI),
        ("MISSING_OR_INVALID_NONCE", .missingOrInvalidNonce), ("INVALID_IDP_RESPONSE", .invalidCredential),
        ("INVALID_CODE", .invalidVerificationCode), ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession),
        ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound), ("SECOND_FACTOR_LIMIT_EXCEEDED", .maximumSecondFactorCountExceeded),
        ("UNVERIFIED_EMAIL", .unverifiedEmail), ("UNSUPPORTED_FIRST_FACTOR", .unsupportedFirstFactor),
        ("INVALID_PHONE_NUMBER", .invalidPhoneNumber), ("MISSING_PHONE_NUMBER", .missingPhoneNumber),
        ("INVALID_SESSION_INFO", .invalidVerificationID), ("MISSING_SESSION_INFO", .missingVerificationID), ("SESSION_EXPIRED", .sessionExpired),
        ("QUOTA_EXCEEDED", .quotaExceeded), ("SECOND_FACTOR_EXISTS", .secondFactorAlreadyEnrolled), ("CAPTCHA_CHECK_FAILED", .captchaCheckFailed),
        ("INVALID_APP_CREDENTIAL", .invalidAppCredential), ("MISSING_APP_CREDENTIAL", .missingAppCredential),
        ("MISSING_IOS_APP_TOKEN", .missingAppToken), ("PHONE_NUMBER_EXISTS", .credentialAlreadyInUse),
        ("INVALID_TEMPORARY_PROOF", .invalidCredential),
    ]

    @Test(arguments: mapped) func mapsTheServiceCode(_ serverCode: String, _ code: AuthErrorCode) throws {
        let error = try Self.refusal(serverCode)
        #expect(error.code == code && error.serverCode == serverCode && error.message == nil && error.status == 400)
    }

    @Test func keepsTheDetail() throws {
        let error = try Self.refusal("WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(error.code == .weakPassword && error.message == "Password should be at least 6 characters")
        #expect(error.description == "AuthError.weakPassword (WEAK_PASSWORD): Password should be at least 6 characters")
    }

    /// Google's own refusals say the code in `details` and a sentence in `message`, as the API key check does.
    @Test func readsTheCodeInTheDetails() throws {
        let envelope = ErrorEnvelope(error: .init(
            code: 400, message: "API key not valid. Please pass a valid API key.", reason: "badRequest", status: "INVALID_ARGUMENT",
            details: [.init(reason: "API_KEY_INVALID", metadata: ["service": "identitytoolkit.googleapis.com"])]))
        let error = AuthError(refusal: try JSONEncoder().encode(envelope), status: 400)
        #expect(error.code == .invalidAPIKey && error.serverCode == "API_KEY_INVALID" && error.message == "API key not valid. Please pass a valid API key.")
    }

    @Test func anUnknownCodeIsAnInternalErrorThatKeepsIt() throws {
        let error = try Self.refusal("SOMETHING_NEW : detail", status: 500)
        #expect(error.code == .internalError && error.serverCode == "SOMETHING_NEW" && error.message == "detail" && error.status == 500)
    }

    @Test func aBodyThatIsNoEnvelopeIsAnInternalError() {
        let error = AuthError(refusal: Data("<html>Bad gateway</html>".utf8), status: 502)
        #expect(error.code == .internalError && error.serverCode == nil && error.status == 502)
    }
}
