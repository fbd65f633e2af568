/// Checks a captcha token with its provider (reCAPTCHA, hCaptcha or Cloudflare Turnstile), using the operator's
/// secret. The adapter is `SiteverifyCaptchaVerifier`.
package protocol CaptchaVerifier: Sendable {
    /// The provider's verdict on `token`, solved from `remoteIP`; throws `AppVerificationUnavailable` when the provider
    /// gives none in time.
    func verify(_ token: String, remoteIP: String?) async throws -> CaptchaVerdict
}

/// What the captcha provider said of a token.
package enum CaptchaVerdict: Sendable, Equatable {
    case passed
    /// Refused, with the provider's reason (`invalid-input-response`, `timeout-or-duplicate`, a low score, another host).
    case failed(String)
}
