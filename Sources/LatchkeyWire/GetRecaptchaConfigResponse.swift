/// Firebase's answer to `GET /v2/recaptchaConfig` (`GoogleCloudIdentitytoolkitV2RecaptchaConfig` in firebase-tools'
/// `src/emulator/auth/schema.ts`; `GetRecaptchaConfigResponse` in the JS SDK's
/// `packages/auth/src/api/authentication/recaptcha.ts` and the iOS SDK): which providers enforce reCAPTCHA Enterprise,
/// and the key of the site that does.
public struct GetRecaptchaConfigResponse: Sendable, Codable, Equatable {
    /// `projects/{project}/keys/{key}`: the JS SDK's `RecaptchaConfig` refuses an answer without one of four parts
    /// (`recaptchaKey undefined`), even when no provider uses it.
    public var recaptchaKey: String
    public var recaptchaEnforcementState: [RecaptchaEnforcementState]
    public var useSmsBotScore: Bool
    public var useSmsTollFraudProtection: Bool

    /// One provider's state: `OFF`, `AUDIT` or `ENFORCE`, for `EMAIL_PASSWORD_PROVIDER` or `PHONE_PROVIDER`.
    public struct RecaptchaEnforcementState: Sendable, Codable, Equatable {
        public var provider: String
        public var enforcementState: String

        public init(provider: String, enforcementState: String) {
            self.provider = provider
            self.enforcementState = enforcementState
        }
    }

    public init(recaptchaKey: String, recaptchaEnforcementState: [RecaptchaEnforcementState], useSmsBotScore: Bool, useSmsTollFraudProtection: Bool) {
        self.recaptchaKey = recaptchaKey
        self.recaptchaEnforcementState = recaptchaEnforcementState
        self.useSmsBotScore = useSmsBotScore
        self.useSmsTollFraudProtection = useSmsTollFraudProtection
    }
}
