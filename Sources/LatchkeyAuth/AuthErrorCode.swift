/// What went wrong, with the names of Firebase's `AuthErrorCode`, so that code written against Firebase's SDK
/// switches on the same cases.
public enum AuthErrorCode: String, Sendable, Equatable, CaseIterable {
    case invalidEmail, missingEmail, userNotFound, wrongPassword, invalidCredential, userDisabled
    case emailAlreadyInUse, weakPassword, tooManyRequests, operationNotAllowed, requiresRecentLogin
    case invalidUserToken, userTokenExpired, userMismatch, noSuchProvider, providerAlreadyLinked
    case invalidActionCode, expiredActionCode, missingActionCode
    case invalidContinueURI, missingContinueURI, unauthorizedDomain, missingIosBundleID, missingAndroidPackageName
    case accountExistsWithDifferentCredential, credentialAlreadyInUse, missingOrInvalidNonce, invalidProviderID
    case secondFactorRequired, invalidVerificationCode, missingMultiFactorSession, invalidMultiFactorSession
    case multiFactorInfoNotFound, maximumSecondFactorCountExceeded, unverifiedEmail, unsupportedFirstFactor
    case sessionExpired, invalidAPIKey, webContextCancelled, keychainError, networkError, internalError
    case invalidPhoneNumber, missingPhoneNumber, invalidVerificationID, missingVerificationID, quotaExceeded
    case secondFactorAlreadyEnrolled, captchaCheckFailed, invalidAppCredential, missingAppCredential, missingAppToken

    /// The case for a code in the service's refusal (the part of `message` before ` : `).
    init(serverCode: String) {
        self = Self.byServerCode[serverCode] ?? .internalError
    }

    private static let byServerCode: [String: AuthErrorCode] = [
        "INVALID_EMAIL": .invalidEmail, "MISSING_EMAIL": .missingEmail, "MISSING_NEW_EMAIL": .missingEmail,
        "INVALID_IDENTIFIER": .invalidEmail, "MISSING_IDENTIFIER": .missingEmail,
        "INVALID_REQUEST_URI": .invalidCredential, "MISSING_REQUEST_URI": .invalidCredential,
        "EMAIL_NOT_FOUND": .userNotFound, "USER_NOT_FOUND": .userNotFound,
        "INVALID_PASSWORD": .wrongPassword, "MISSING_PASSWORD": .wrongPassword,
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential, "INVALID_IDP_RESPONSE": .invalidCredential,
        "INVALID_PENDING_TOKEN": .invalidCredential, "MISSING_CREDENTIAL": .invalidCredential,
        "INVALID_CREDENTIAL_OR_PROVIDER_ID": .invalidCredential,
        "USER_DISABLED": .userDisabled, "EMAIL_EXISTS": .emailAlreadyInUse, "WEAK_PASSWORD": .weakPassword,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests, "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin,
        "INVALID_ID_TOKEN": .invalidUserToken, "MISSING_ID_TOKEN": .invalidUserToken, "INVALID_REFRESH_TOKEN": .invalidUserToken,
        "MISSING_REFRESH_TOKEN": .invalidUserToken, "TOKEN_EXPIRED": .userTokenExpired,
        "INVALID_OOB_CODE": .invalidActionCode, "EXPIRED_OOB_CODE": .expiredActionCode, "MISSING_OOB_CODE": .missingActionCode,
        "INVALID_CONTINUE_URI": .invalidContinueURI, "MISSING_CONTINUE_URI": .missingContinueURI,
        "UNAUTHORIZED_DOMAIN": .unauthorizedDomain, "INVALID_IOS_BUNDLE_ID": .missingIosBundleID,
        "MISSING_ANDROID_PACKAGE_NAME": .missingAndroidPackageName, "INVALID_ANDROID_PACKAGE_NAME": .missingAndroidPackageName,
        "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse, "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce,
        "INVALID_PROVIDER_ID": .invalidProviderID,
        "INVALID_CODE": .invalidVerificationCode, "MISSING_CODE": .invalidVerificationCode,
        "MISSING_MFA_PENDING_CREDENTIAL": .missingMultiFactorSession, "INVALID_MFA_PENDING_CREDENTIAL": .invalidMultiFactorSession,
        "MISSING_SESSION_INFO": .missingVerificationID, "INVALID_SESSION_INFO": .invalidVerificationID,
        "MFA_ENROLLMENT_NOT_FOUND": .multiFactorInfoNotFound, "MISSING_MFA_ENROLLMENT_ID": .multiFactorInfoNotFound,
        "SECOND_FACTOR_LIMIT_EXCEEDED": .maximumSecondFactorCountExceeded, "UNVERIFIED_EMAIL": .unverifiedEmail,
        "UNSUPPORTED_FIRST_FACTOR": .unsupportedFirstFactor, "SESSION_EXPIRED": .sessionExpired,
        "API_KEY_INVALID": .invalidAPIKey, "USER_CANCELLED": .webContextCancelled,
        // Phone numbers and texts, as firebase-ios-sdk's `AuthBackend` maps them; the JS SDK's for the temporary proof.
        "INVALID_PHONE_NUMBER": .invalidPhoneNumber, "MISSING_PHONE_NUMBER": .missingPhoneNumber, "QUOTA_EXCEEDED": .quotaExceeded,
        "SECOND_FACTOR_EXISTS": .secondFactorAlreadyEnrolled, "CAPTCHA_CHECK_FAILED": .captchaCheckFailed,
        "INVALID_APP_CREDENTIAL": .invalidAppCredential, "MISSING_APP_CREDENTIAL": .missingAppCredential,
        "MISSING_IOS_APP_TOKEN": .missingAppToken, "PHONE_NUMBER_EXISTS": .credentialAlreadyInUse,
        "INVALID_TEMPORARY_PROOF": .invalidCredential,
    ]
}
