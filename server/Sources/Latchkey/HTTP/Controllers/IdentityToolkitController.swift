import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// The Identity Toolkit endpoints of emailed links: `accounts:sendOobCode`, `accounts:signInWithEmailLink` and
/// `accounts:resetPassword` (the other email actions: `IdentityToolkitController+EmailActions.swift`).
struct IdentityToolkitController {
    let issuer: LinkIssuer
    let completer: LinkCompleter
    let actionIssuer: ActionCodeIssuer
    let actionCodes: ActionCodes
    let authorizedDomains: Set<String>
    let apps: AppsConfiguration

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:sendOobCode", use: sendOobCode)
            .post("accounts:signInWithEmailLink", use: signInWithEmailLink)
            .post("accounts:resetPassword", use: resetPassword)
    }

    /// Decoding has already refused every request type not served.
    @Sendable func sendOobCode(_ request: Request, context: AppRequestContext) async throws -> GetOobConfirmationCodeResponse {
        let body = try await RequestBody.decode(SendOobCodeRequest.self, from: request, context: context)
        if body.returnOobLink == true, context.admin == nil { throw APIError.unauthenticated }
        guard body.requestType == .emailSignIn else { return try await sendActionCode(body, request, context: context) }
        let email = try EmailAddress(requestField: body.email)
        let settings = try ActionCodeSettings(
            continueURL: body.continueUrl, canHandleCodeInApp: body.canHandleCodeInApp ?? false, iOSBundleID: body.iOSBundleId,
            androidPackageName: body.androidPackageName, androidInstallApp: body.androidInstallApp ?? false,
            androidMinimumVersion: body.androidMinimumVersion, authorizedDomains: authorizedDomains, apps: apps)
        let language = context.language(of: request)
        let returnsLink = body.returnOobLink == true
        let issued = try await issuer.issue(
            .init(email: email, settings: settings, language: language, apiKey: context.apiKey ?? "", caller: context.caller(of: request)),
            sendsEmail: !returnsLink, logger: context.logger)
        guard returnsLink, let issued else { return GetOobConfirmationCodeResponse(email: email.value) }
        return GetOobConfirmationCodeResponse(email: email.value, oobCode: issued.code, oobLink: issued.link.url)
    }

    @Sendable func signInWithEmailLink(_ request: Request, context: AppRequestContext) async throws -> EmailLinkSigninResponse {
        let body = try await RequestBody.decode(EmailLinkSigninRequest.self, from: request, context: context)
        let result = try await completer.complete(body, by: context.caller(of: request), logger: context.logger)
        // An email-link sign-in leaves its account with the address it proved.
        var response = EmailLinkSigninResponse(
            idToken: nil, refreshToken: nil, expiresIn: nil, localId: result.account.id, email: result.account.email?.value ?? "",
            isNewUser: result.isNewUser)
        response.answer(result)
        return response
    }
}
