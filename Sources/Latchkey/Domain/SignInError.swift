/// Why a sign-in step was refused, in the vocabulary of Firebase's Identity Toolkit.
///
/// The domain knows nothing of HTTP; `SignInError+HTTP.swift` turns these into the error envelope.
package enum SignInError: Error, Sendable, Equatable {
    case missingEmail
    case invalidEmail
    case emailMismatch
    case missingRequestType
    case invalidRequestType
    case missingContinueURI
    case invalidContinueURI
    case unauthorizedDomain
    case invalidIOSBundleID
    case invalidAndroidPackageName
    case missingOOBCode
    case invalidOOBCode
    case expiredOOBCode
    case userDisabled
    case userNotFound
    case missingRefreshToken
    case invalidRefreshToken
    case missingGrantType
    case invalidGrantType
    case tokenExpired

    /// The Identity Toolkit error name clients switch on.
    package var code: String {
        switch self {
        case .missingEmail: "MISSING_EMAIL"
        case .invalidEmail, .emailMismatch: "INVALID_EMAIL"
        case .missingRequestType: "MISSING_REQ_TYPE"
        case .invalidRequestType: "INVALID_REQ_TYPE"
        case .missingContinueURI: "MISSING_CONTINUE_URI"
        case .invalidContinueURI: "INVALID_CONTINUE_URI"
        case .unauthorizedDomain: "UNAUTHORIZED_DOMAIN"
        case .invalidIOSBundleID: "INVALID_IOS_BUNDLE_ID"
        case .invalidAndroidPackageName: "INVALID_ANDROID_PACKAGE_NAME"
        case .missingOOBCode: "MISSING_OOB_CODE"
        case .invalidOOBCode: "INVALID_OOB_CODE"
        case .expiredOOBCode: "EXPIRED_OOB_CODE"
        case .userDisabled: "USER_DISABLED"
        case .userNotFound: "USER_NOT_FOUND"
        case .missingRefreshToken: "MISSING_REFRESH_TOKEN"
        case .invalidRefreshToken: "INVALID_REFRESH_TOKEN"
        case .missingGrantType: "MISSING_GRANT_TYPE"
        case .invalidGrantType: "INVALID_GRANT_TYPE"
        case .tokenExpired: "TOKEN_EXPIRED"
        }
    }

    /// The text after `CODE : ` in the message, where Firebase gives one.
    package var detail: String? {
        switch self {
        case .emailMismatch: "The email provided does not match the sign-in email address."
        case .unauthorizedDomain: "Domain not allowlisted by project"
        case .invalidContinueURI: "The continue URL must be an absolute https URL (http only for localhost) without user info."
        case .invalidIOSBundleID: "The iOS bundle id must be a reverse-DNS identifier."
        case .invalidAndroidPackageName: "The Android package name must be a reverse-DNS identifier."
        default: nil
        }
    }
}
