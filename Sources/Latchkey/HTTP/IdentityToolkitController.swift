import Hummingbird

/// The Identity Toolkit endpoints of the email-link flow: `accounts:sendOobCode` and `accounts:signInWithEmailLink`.
struct IdentityToolkitController {
    let issuer: LinkIssuer
    let completer: LinkCompleter
    let lookup: AccountLookup
    let authorizedDomains: Set<String>
    let apps: AppsConfiguration
    let enumerationProtection: Bool
    let metrics: ServiceMetrics

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:sendOobCode", use: sendOobCode)
            .post("accounts:signInWithEmailLink", use: signInWithEmailLink)
    }

    /// Firebase's `GetOobConfirmationCodeResponse`.
    struct SendOobCodeResponse: ResponseEncodable {
        var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
        let email: String
        /// Only for an admin's `returnOobLink: true`.
        var oobCode: String?
        var oobLink: String?
    }

    /// Firebase's `EmailLinkSigninResponse`.
    struct EmailLinkSigninResponse: ResponseEncodable {
        var kind = "identitytoolkit#EmailLinkSigninResponse"
        let idToken: String
        let refreshToken: String
        let expiresIn: String
        let localId: String
        let email: String
        let isNewUser: Bool
    }

    /// The only request type served so far: `EMAIL_SIGNIN`, also sent as its enum number 6.
    static let emailSignInRequestType = "EMAIL_SIGNIN"
    static let emailSignInRequestNumber = 6

    @Sendable func sendOobCode(_ request: Request, context: AppRequestContext) async throws -> SendOobCodeResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        switch body["requestType"] {
        case nil, .null?: throw SignInError.missingRequestType
        case let type? where type.stringValue == Self.emailSignInRequestType || type.intValue == Self.emailSignInRequestNumber: break
        default: throw SignInError.invalidRequestType
        }
        let email = try Self.email(in: body)
        let settings = try ActionCodeSettings(
            continueURL: try Self.optionalString(body["continueUrl"], else: .invalidContinueURI),
            canHandleCodeInApp: body["canHandleCodeInApp"]?.boolValue ?? false,
            iOSBundleID: try Self.optionalString(body["iOSBundleId"], else: .invalidIOSBundleID),
            androidPackageName: try Self.optionalString(body["androidPackageName"], else: .invalidAndroidPackageName),
            androidInstallApp: body["androidInstallApp"]?.boolValue ?? false,
            // The JS SDK names it `androidMinimumVersionCode`.
            androidMinimumVersion: (body["androidMinimumVersion"] ?? body["androidMinimumVersionCode"])?.stringValue,
            authorizedDomains: authorizedDomains, apps: apps)
        let language = LanguageTag.preferred(
            firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage])
        let returnsLink = body["returnOobLink"]?.boolValue == true
        if returnsLink, !context.isAdmin { throw APIError.unauthenticated }
        // Admins are trusted callers: their requests count against no limit.
        let limits = context.isAdmin ? [] : [RateLimiter.Check(.sendPerEmail, email.value), RateLimiter.Check(.sendPerIP, context.clientIP ?? "")]
        let issued: (code: String, link: SignInLink)
        do {
            issued = try await issuer.issue(
                .init(
                    email: email, settings: settings, language: language, apiKey: context.apiKey ?? "",
                    requester: context.requester(of: request)),
                sendsEmail: !returnsLink, limits: limits, logger: context.logger)
        } catch let refusal as RateLimited where refusal.rule == .sendPerEmail && enumerationProtection {
            // Saying "too many" would tell a prober that someone just asked for this address.
            metrics.countRejection(by: refusal.rule)
            context.logger.debug("Send dropped by the per-address limit", metadata: ["email": "\(email.redacted)"])
            return SendOobCodeResponse(email: email.value)
        }
        guard returnsLink else { return SendOobCodeResponse(email: email.value) }
        return SendOobCodeResponse(email: email.value, oobCode: issued.code, oobLink: issued.link.url)
    }

    @Sendable func signInWithEmailLink(_ request: Request, context: AppRequestContext) async throws -> EmailLinkSigninResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        let email = try Self.email(in: body)
        guard let code = try Self.optionalString(body["oobCode"], else: .invalidOOBCode), !code.isEmpty else { throw SignInError.missingOOBCode }
        guard code.utf8.count <= 256 else { throw SignInError.invalidOOBCode }
        // A linking request's token is checked before the code, so a stale session never spends a code.
        var signedIn: IDTokenClaims?
        if let idToken = try Self.optionalString(body["idToken"], else: .invalidIDToken), !idToken.isEmpty {
            signedIn = try await lookup.authenticate(idToken: idToken).claims
        }
        // Counted in the completion's own transaction, before the code is looked up: guessing codes is cut off per IP
        // (admins count against nothing). A linking request's token was checked above, as `accounts:lookup` checks one.
        let session = try await completer.complete(
            email: email, code: code, signedIn: signedIn, requester: context.requester(of: request),
            limits: context.isAdmin ? [] : [RateLimiter.Check(.completePerIP, context.clientIP ?? "")], logger: context.logger)
        return EmailLinkSigninResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), localId: session.account.id,
            email: email.value, isNewUser: session.isNewUser)
    }

    /// The `email` field: absent, null or empty is `MISSING_EMAIL`; anything but a valid address string is `INVALID_EMAIL`.
    static func email(in body: JSONValue) throws(SignInError) -> EmailAddress {
        guard let raw = try optionalString(body["email"], else: .invalidEmail), !raw.isEmpty else { throw .missingEmail }
        guard let email = EmailAddress(raw) else { throw .invalidEmail }
        return email
    }

    /// A string field, `nil` when absent or null; any other JSON type is refused with `error`.
    static func optionalString(_ value: JSONValue?, else error: SignInError) throws(SignInError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?: return string
        default: throw error
        }
    }
}
