import Hummingbird
import LatchkeyWire

/// `accounts:signInWithIdp` (v3 `verifyAssertion`): sign in, sign up or link with an identity provider's credential.
///
/// The credential is checked against the provider before anything is written: a provider that is down, slow or lies
/// is `INVALID_IDP_RESPONSE` and nothing changes. A `pendingToken` comes only with the answers the SDKs keep a
/// credential from ("needs confirmation", "already in use"); a signed-in answer has none.
struct ProviderSignInController {
    let assertion: ProviderAssertion
    let signIn: ProviderSignIn
    let lookup: AccountLookup

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:signInWithIdp", use: signInWithIdp)
    }

    @Sendable func signInWithIdp(_ request: Request, context: AppRequestContext) async throws -> SignInWithIdpResponse {
        let body = try await RequestBody.decode(SignInWithIdpRequest.self, from: request, context: context)
        let caller = context.caller(of: request)
        try await signIn.admit(caller)
        let asserted = try await assertion.assert(
            requestURI: body.requestUri, postBody: body.postBody, sessionID: body.sessionId, pendingToken: body.pendingToken)
        let identity = asserted.identity
        var linking: IDTokenClaims?
        if let token = body.idToken, !token.isEmpty { linking = try await lookup.authenticate(idToken: token).claims }
        var response = Self.response(asserted, returningRefreshToken: body.returnRefreshToken == true)
        do {
            switch try await signIn.signIn(
                identity, linking: linking, autoCreate: body.autoCreate ?? true, language: context.language(of: request), by: caller, logger: context.logger) {
            case .signedIn(let result, let recycled):
                response.localId = result.account.id
                response.answer(result)
                response.isNewUser = result.isNewUser ? true : nil
                response.emailRecycled = recycled ? true : nil
                if let email = identity.email, result.account.email == email { response.emailVerified = result.account.isEmailVerified }
            case .needsConfirmation(let accountID, let verifiedProviders):
                response.needConfirmation = true
                // Under enumeration protection the account is not described to whoever presents its address: the SDKs
                // need only the address, the provider and the credential.
                if !lookup.enumerationProtection { (response.localId, response.verifiedProvider) = (accountID, verifiedProviders) }
                response.pendingToken = try await assertion.keep(asserted)
            }
        } catch let refusal as SignInError where body.returnIdpCredential == true && [.federatedUserIDAlreadyLinked, .emailExists].contains(refusal) {
            // The SDKs' "credential already in use": the credential comes back so the app can sign in with it instead.
            response.errorMessage = refusal.code
            response.pendingToken = try await assertion.keep(asserted)
        }
        return response
    }

    /// What the provider says of the user (spec "Claims → fields"), and the tokens it handed over.
    static func response(_ asserted: ProviderAssertion.Asserted, returningRefreshToken: Bool) -> SignInWithIdpResponse {
        let identity = asserted.identity
        var response = SignInWithIdpResponse(
            providerId: identity.providerID,
            federatedId: identity.providerID == BuiltInIdentityProvider.google.rawValue ? "https://accounts.google.com/\(identity.subject)" : identity.subject,
            emailVerified: identity.isEmailVerified, rawUserInfo: identity.rawUserInfo)
        response.email = identity.email?.value
        response.displayName = identity.displayName
        response.fullName = identity.displayName
        response.firstName = identity.firstName
        response.lastName = identity.lastName
        response.photoUrl = identity.photoURL
        response.screenName = identity.screenName
        response.oauthIdToken = identity.idToken
        response.oauthAccessToken = asserted.accessToken
        response.oauthExpireIn = asserted.accessToken == nil ? nil : asserted.accessTokenLifetime
        response.oauthRefreshToken = returningRefreshToken ? asserted.refreshToken : nil
        response.context = asserted.context
        return response
    }
}
