/// Firebase's `GetRecaptchaParamResponse` (`GET /v1/recaptchaParams`): the site key of the reCAPTCHA v2 widget that
/// firebase-js-sdk's `RecaptchaVerifier` renders (`getRecaptchaParams` in `packages/auth/src/api/authentication/recaptcha.ts`,
/// which refuses an answer without one). firebase-tools' emulator answers the same `kind` with fake values.
public struct GetRecaptchaParamResponse: Sendable, Codable, Equatable {
    public var kind: String
    public var recaptchaSiteKey: String?

    public init(recaptchaSiteKey: String?) {
        self.kind = "identitytoolkit#GetRecaptchaParamResponse"
        self.recaptchaSiteKey = recaptchaSiteKey
    }
}
