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
    /// The request names an iOS app that is not in `apps.ios`.
    case unlistedIOSBundleID
    /// The request names an Android app that is not in `apps.android`.
    case unlistedAndroidPackageName
    /// `androidInstallApp` without `androidPackageName`.
    case missingAndroidPackageName
    case missingOOBCode
    case invalidOOBCode
    case expiredOOBCode
    case userDisabled
    case userNotFound
    case missingRefreshToken
    case invalidRefreshToken
    case missingGrantType
    case missingPassword
    case weakPassword
    case passwordTooLong
    case passwordHasControlCharacters
    /// A password that misses requirements of the enforced `PasswordPolicy`, listed in Firebase's words.
    case passwordDoesNotMeetRequirements([String])
    case emailExists
    /// Another account has the phone number.
    case phoneNumberExists
    case missingPhoneNumber
    /// Not an E.164 number Latchkey could text (`PhoneNumber`).
    case invalidPhoneNumber
    /// A `temporaryProof` that is unknown, spent, expired or of another number.
    case invalidTemporaryProof
    /// A number signing in to, or linked to, an account with second factors, which Firebase refuses.
    case phoneFirstFactorOfEnrolledAccount
    /// The phone to enroll is one of the account's factors already.
    case secondFactorExists
    /// The number's region is one the SMS region policy keeps texts from.
    case regionNotAllowed
    case duplicateLocalID
    case invalidLocalID
    /// `accounts:batchDelete` with no uid or more than `AccountAdministration.batchDeleteLimit`.
    case localIDListExceedsLimit
    /// An enabled account in an `accounts:batchDelete` without `force`: reported for that uid, the others deleted.
    case notDisabled
    /// `accounts:batchGet`: a page size outside 1...1000, or a page token this server did not give.
    case invalidPageSelection
    /// Custom claims that are not a JSON object.
    case invalidClaims
    /// Custom claims longer than `CustomClaims.maximumBytes`.
    case claimsTooLarge
    /// A custom claim of a name the token sets itself.
    case forbiddenClaim(String)
    case missingCustomToken
    /// A custom token that is not one a configured service account signed for this server, now; the reason follows
    /// the code, as Firebase's backend words it.
    case invalidCustomToken(String)
    /// A custom token signed by a service account of another project.
    case credentialMismatch
    /// The account is not linked to the provider the request names.
    case noSuchProvider
    /// A request missing a field it needs, or with one it cannot use, where Firebase answers Google's generic code.
    case invalidArgument(String)
    case emailNotFound
    case invalidPassword
    case invalidLoginCredentials
    case invalidIDToken
    case missingIdentifier
    case invalidIdentifier
    case credentialTooOld
    case invalidProfileAttribute
    case tenantIDMismatch
    case tenantsNotSupported
    case invalidGrantType
    case tokenExpired
    /// The provider's user id already signs in to an account.
    case federatedUserIDAlreadyLinked
    /// The account has a password already: it is changed, not linked again.
    case providerAlreadyLinked
    case missingRequestURI
    case invalidRequestURI
    /// The credential names no provider; the detail is the normalized request URI, as Firebase's emulator gives it.
    case invalidCredentialOrProviderID(String)
    /// The provider is not configured, or is disabled.
    case operationNotAllowed
    /// The provider is down or lies, or its credential is forged, expired or meant for someone else.
    case invalidIDPResponse(String)
    case missingOrInvalidNonce
    /// The user declined at the provider (`error=access_denied`).
    case userCancelled
    /// `createAuthUri` names a provider that is not configured.
    case invalidProviderID
    /// The `pendingToken` is unknown or expired.
    case invalidPendingToken
    /// A `continueUri` for a provider sign-in holds a fragment or a `state` parameter.
    case reservedContinueURI
    case missingIDToken
    /// A session cookie's `validDuration` outside five minutes to fourteen days.
    case invalidDuration
    /// An address change without the new address.
    case missingNewEmail
    /// A user's direct change of a verified address: it must go through VERIFY_AND_CHANGE_EMAIL.
    case verifyNewEmailFirst
    /// `mfa.state` is `DISABLED`.
    case secondFactorsDisabled
    /// The session signed in anonymously (or otherwise without a factor second factors build on).
    case unsupportedFirstFactor
    case unverifiedEmail
    case secondFactorLimitExceeded
    /// A second-factor request without TOTP information, or with a kind Latchkey does not offer (SMS).
    case unsupportedSecondFactor(String)
    case missingSessionInfo
    /// The enrollment's `sessionInfo` is unknown, another account's, or finished.
    case invalidSessionInfo
    /// The enrollment's `sessionInfo` is past its `finalizeEnrollmentTime`.
    case sessionExpired
    case missingCode
    /// A wrong, malformed or already used TOTP code.
    case invalidCode
    /// `mfaSignIn:finalize` without `mfaPendingCredential` (production's code, as the emulator notes).
    case missingCredential
    case missingMFAPendingCredential
    /// Unknown, expired, used, or dead after too many wrong codes.
    case invalidMFAPendingCredential
    case missingMFAEnrollmentID
    case mfaEnrollmentNotFound
    /// Cancelling the undos of an address change (a Latchkey extension) by an account without a second factor.
    case noSecondFactor
    /// Cancelling the undos of an address change from a session that did not pass the account's second factor: signing
    /// in again, which asks for it, makes one that did (answered as a stale sign-in, so the SDKs ask for that).
    case secondFactorNotPassed
    /// `accounts:verifyClient` without the app's APNs device token.
    case missingAppToken
    /// `accounts:verifyClient` when no APNs key is configured (`appVerification.apns`): no push can prove the app.
    case pushVerificationOff
    /// `accounts:verifyClient` without `X-Ios-Bundle-Identifier` when `apps.ios` lists other than one app.
    case missingIOSBundleID
    /// A text asked for without any proof that the real app asks (no receipt, no captcha token), or with half a receipt.
    case missingAppCredential
    /// A receipt that is unknown, used, expired or whose secret is wrong, or a device token APNs refused; the reason
    /// follows the code. firebase-ios-sdk answers it by asking `verifyClient` for a new receipt once.
    case invalidAppCredential(String)
    /// A captcha token the provider refused, or one nothing is configured to check; the reason follows the code.
    case captchaCheckFailed(String)

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
        case .invalidIOSBundleID, .unlistedIOSBundleID: "INVALID_IOS_BUNDLE_ID"
        case .invalidAndroidPackageName, .unlistedAndroidPackageName: "INVALID_ANDROID_PACKAGE_NAME"
        case .missingAndroidPackageName: "MISSING_ANDROID_PACKAGE_NAME"
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
        case .federatedUserIDAlreadyLinked: "FEDERATED_USER_ID_ALREADY_LINKED"
        case .providerAlreadyLinked: "PROVIDER_ALREADY_LINKED"
        case .missingRequestURI: "MISSING_REQUEST_URI"
        case .invalidRequestURI: "INVALID_REQUEST_URI"
        case .invalidCredentialOrProviderID: "INVALID_CREDENTIAL_OR_PROVIDER_ID"
        case .operationNotAllowed: "OPERATION_NOT_ALLOWED"
        case .invalidIDPResponse: "INVALID_IDP_RESPONSE"
        case .missingOrInvalidNonce: "MISSING_OR_INVALID_NONCE"
        case .userCancelled: "USER_CANCELLED"
        case .invalidProviderID: "INVALID_PROVIDER_ID"
        case .invalidPendingToken: "INVALID_PENDING_TOKEN"
        case .reservedContinueURI: "INVALID_CONTINUE_URI"
        case .missingPassword: "MISSING_PASSWORD"
        case .weakPassword, .passwordTooLong, .passwordHasControlCharacters: "WEAK_PASSWORD"
        case .passwordDoesNotMeetRequirements: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS"
        case .emailExists: "EMAIL_EXISTS"
        case .phoneNumberExists: "PHONE_NUMBER_EXISTS"
        case .missingPhoneNumber: "MISSING_PHONE_NUMBER"
        case .invalidPhoneNumber: "INVALID_PHONE_NUMBER"
        case .invalidTemporaryProof: "INVALID_TEMPORARY_PROOF"
        case .phoneFirstFactorOfEnrolledAccount: "UNSUPPORTED_FIRST_FACTOR"
        case .secondFactorExists: "SECOND_FACTOR_EXISTS"
        case .regionNotAllowed: "OPERATION_NOT_ALLOWED"
        case .duplicateLocalID: "DUPLICATE_LOCAL_ID"
        case .invalidLocalID: "INVALID_LOCAL_ID"
        case .localIDListExceedsLimit: "LOCAL_ID_LIST_EXCEEDS_LIMIT"
        case .notDisabled: "NOT_DISABLED"
        case .invalidPageSelection: "INVALID_PAGE_SELECTION"
        case .invalidClaims: "INVALID_CLAIMS"
        case .claimsTooLarge: "CLAIMS_TOO_LARGE"
        case .forbiddenClaim: "FORBIDDEN_CLAIM"
        case .missingCustomToken: "MISSING_CUSTOM_TOKEN"
        case .invalidCustomToken: "INVALID_CUSTOM_TOKEN"
        case .credentialMismatch: "CREDENTIAL_MISMATCH"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .noSuchProvider: "NO_SUCH_PROVIDER"
        case .emailNotFound: "EMAIL_NOT_FOUND"
        case .invalidPassword: "INVALID_PASSWORD"
        case .invalidLoginCredentials: "INVALID_LOGIN_CREDENTIALS"
        case .invalidIDToken: "INVALID_ID_TOKEN"
        case .missingIdentifier: "MISSING_IDENTIFIER"
        case .invalidIdentifier: "INVALID_IDENTIFIER"
        case .credentialTooOld, .secondFactorNotPassed: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
        case .invalidProfileAttribute: "INVALID_PROFILE_ATTRIBUTE"
        case .tenantIDMismatch: "TENANT_ID_MISMATCH"
        case .tenantsNotSupported: "OPERATION_NOT_ALLOWED"
        case .missingIDToken: "MISSING_ID_TOKEN"
        case .invalidDuration: "INVALID_DURATION"
        case .missingNewEmail: "MISSING_NEW_EMAIL"
        case .verifyNewEmailFirst: "OPERATION_NOT_ALLOWED"
        case .secondFactorsDisabled: "OPERATION_NOT_ALLOWED"
        case .unsupportedFirstFactor: "UNSUPPORTED_FIRST_FACTOR"
        case .unverifiedEmail: "UNVERIFIED_EMAIL"
        case .secondFactorLimitExceeded: "SECOND_FACTOR_LIMIT_EXCEEDED"
        case .unsupportedSecondFactor: "INVALID_ARGUMENT"
        case .missingSessionInfo: "MISSING_SESSION_INFO"
        case .invalidSessionInfo: "INVALID_SESSION_INFO"
        case .sessionExpired: "SESSION_EXPIRED"
        case .missingCode: "MISSING_CODE"
        case .invalidCode: "INVALID_CODE"
        case .missingCredential: "MISSING_CREDENTIAL"
        case .missingMFAPendingCredential: "MISSING_MFA_PENDING_CREDENTIAL"
        case .invalidMFAPendingCredential: "INVALID_MFA_PENDING_CREDENTIAL"
        case .missingMFAEnrollmentID: "MISSING_MFA_ENROLLMENT_ID"
        case .mfaEnrollmentNotFound, .noSecondFactor: "MFA_ENROLLMENT_NOT_FOUND"
        case .missingAppToken: "MISSING_IOS_APP_TOKEN"
        case .pushVerificationOff: "OPERATION_NOT_ALLOWED"
        case .missingIOSBundleID: "MISSING_IOS_BUNDLE_ID"
        case .missingAppCredential: "MISSING_APP_CREDENTIAL"
        case .invalidAppCredential: "INVALID_APP_CREDENTIAL"
        case .captchaCheckFailed: "CAPTCHA_CHECK_FAILED"
        }
    }

    /// The text after `CODE : ` in the message, where Firebase gives one.
    package var detail: String? {
        switch self {
        case .emailMismatch: "The email provided does not match the sign-in email address."
        case .invalidPhoneNumber: "Invalid format."
        case .phoneFirstFactorOfEnrolledAccount: "A phone number cannot be set as a first factor on an SMS based MFA user."
        case .secondFactorExists: "Phone number already enrolled as second factor for this account."
        case .regionNotAllowed: "SMS unable to be sent until this region enabled by the app developer."
        case .unauthorizedDomain: "Domain not allowlisted by project"
        case .weakPassword: "Password should be at least 6 characters"
        case .invalidLocalID: "The uid must be 1 to 128 characters without control or bidirectional formatting characters."
        case .passwordTooLong: "Password should be at most 4096 bytes"
        case .notDisabled: "Disable the account before batch deletion."
        case .passwordHasControlCharacters: "Password must not contain control characters"
        case .passwordDoesNotMeetRequirements(let unmet): "Missing password requirements: [\(unmet.joined(separator: ", "))]"
        case .tenantsNotSupported: "Tenants are not supported."
        case .tenantIDMismatch: "This server has no tenants."
        case .invalidContinueURI: "The continue URL must be an absolute https URL (http only for localhost) without user info."
        case .invalidIOSBundleID: "The iOS bundle id must be a reverse-DNS identifier."
        case .invalidAndroidPackageName: "The Android package name must be a reverse-DNS identifier."
        case .unlistedIOSBundleID: "The iOS bundle id is not one of the project's apps (apps.ios)."
        case .unlistedAndroidPackageName: "The Android package name is not one of the project's apps (apps.android)."
        case .missingAndroidPackageName: "An Android package name must be provided if the Android app is required to be installed."
        case .invalidCredentialOrProviderID(let requestURI): "Invalid IdP response/credential: \(requestURI)"
        case .invalidIDPResponse(let reason): reason
        case .reservedContinueURI: "The URL cannot contain fragments or the reserved state query parameter."
        case .secondFactorsDisabled: "TOTP based MFA not enabled."
        case .unsupportedFirstFactor: "MFA is not available for the given first factor."
        case .unverifiedEmail: "Need to verify email first before enrolling second factors."
        case .secondFactorLimitExceeded: "The account already has as many second factors as it may have (mfa.maxFactors)."
        case .unsupportedSecondFactor(let reason): reason
        case .missingCredential: "Please set MFA Pending Credential."
        case .verifyNewEmailFirst: "Please verify the new email before changing email."
        case .missingMFAPendingCredential: "Request does not have MFA pending credential."
        case .missingMFAEnrollmentID: "No second factor identifier is provided."
        case .noSecondFactor: "Only an account with a second factor can cancel the undo of an address change."
        case .secondFactorNotPassed: "Sign in again with the account's second factor."
        case .invalidClaims: "Custom claims must be a JSON object."
        case .claimsTooLarge: "Custom claims must be at most \(CustomClaims.maximumBytes) bytes."
        case .forbiddenClaim(let name): name
        case .invalidCustomToken(let reason), .invalidArgument(let reason): reason
        case .credentialMismatch: "The custom token corresponds to a different audience."
        case .pushVerificationOff: "This server sends no silent pushes (appVerification.apns is not configured)."
        case .missingIOSBundleID: "The request must name the iOS app (X-Ios-Bundle-Identifier), one of apps.ios."
        case .missingAppCredential: "The request must prove the app: iosReceipt and iosSecret, or a captcha token."
        case .invalidAppCredential(let reason), .captchaCheckFailed(let reason): reason
        default: nil
        }
    }
}
