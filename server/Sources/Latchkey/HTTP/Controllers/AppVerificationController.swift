import HTTPTypes
import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// App verification's own calls: `accounts:verifyClient`, an iOS app's request for a silent push (`AppVerification`),
/// and `GET /v1/recaptchaParams`, the site key of the captcha widget the web SDK renders.
struct AppVerificationController {
    let verification: AppVerification
    let recaptchaParams: GetRecaptchaParamResponse

    init(verification: AppVerification, siteKey: String?) {
        self.verification = verification
        recaptchaParams = GetRecaptchaParamResponse(recaptchaSiteKey: siteKey)
    }

    /// firebase-ios-sdk names the app on every request (`AuthBackend`'s `X-Ios-Bundle-Identifier`).
    static let bundleIDHeader = HTTPField.Name("X-Ios-Bundle-Identifier")

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:verifyClient", use: verifyClient)
    }

    @Sendable func verifyClient(_ request: Request, context: AppRequestContext) async throws -> VerifyClientResponse {
        let body = try await RequestBody.decode(VerifyClientRequest.self, from: request, context: context)
        let bundleID = Self.bundleIDHeader.flatMap { request.headers[$0] }
        return try await verification.verifyClient(body, bundleID: bundleID, by: context.caller(of: request))
    }

    /// `GET /v1/recaptchaParams`: `appVerification.captcha.siteKey`, or no key when none is configured.
    @Sendable func recaptchaParams(_ request: Request, context: AppRequestContext) async throws -> GetRecaptchaParamResponse {
        recaptchaParams
    }
}
