/// Firebase's `SendVerificationCodeRequest` (`v1 accounts:sendVerificationCode`): text a code to `phoneNumber`. The
/// same members make the `phoneEnrollmentInfo` of `mfaEnrollment:start` and, without the number, the
/// `phoneSignInInfo` of `mfaSignIn:start` (firebase-ios-sdk's `SendVerificationCodeRequest` and
/// `AuthProtoStartMFAPhoneRequestInfo`, firebase-js-sdk's `SendPhoneVerificationCodeRequest`).
///
/// The proof that the request comes from the real app is one of: `iosReceipt` and `iosSecret` (from
/// `accounts:verifyClient` and the silent push), `recaptchaToken` (a reCAPTCHA v2 page or widget), or `captchaResponse`
/// with `recaptchaVersion` and `clientType` (reCAPTCHA Enterprise); `playIntegrityToken` and `safetyNetToken` come from
/// Android.
public struct SendVerificationCodeRequest: Sendable, Codable, Equatable {
    public var phoneNumber: String?
    public var iosReceipt: String?
    public var iosSecret: String?
    public var recaptchaToken: String?
    public var captchaResponse: String?
    public var recaptchaVersion: String?
    public var clientType: String?
    public var playIntegrityToken: String?
    public var safetyNetToken: String?
    /// Android's SMS Retriever hash (`{"appSignatureHash": …}`), which the text would carry.
    public var autoRetrievalInfo: OpaqueObject?
    public var tenantId: String?

    public init(
        phoneNumber: String?, iosReceipt: String? = nil, iosSecret: String? = nil, recaptchaToken: String? = nil, captchaResponse: String? = nil,
        recaptchaVersion: String? = nil, clientType: String? = nil, playIntegrityToken: String? = nil, safetyNetToken: String? = nil,
        autoRetrievalInfo: OpaqueObject? = nil, tenantId: String? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.iosReceipt = iosReceipt
        self.iosSecret = iosSecret
        self.recaptchaToken = recaptchaToken
        self.captchaResponse = captchaResponse
        self.recaptchaVersion = recaptchaVersion
        self.clientType = clientType
        self.playIntegrityToken = playIntegrityToken
        self.safetyNetToken = safetyNetToken
        self.autoRetrievalInfo = autoRetrievalInfo
        self.tenantId = tenantId
    }
}
