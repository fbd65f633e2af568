import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// `accounts:signInWithIdp` (v3 `verifyAssertion`): sign in, sign up or link with an identity provider's credential
/// (`ProviderSignIn`), answered in Firebase's shape.
struct ProviderSignInController {
    let signIn: ProviderSignIn

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:signInWithIdp", use: signInWithIdp)
    }

    @Sendable func signInWithIdp(_ request: Request, context: AppRequestContext) async throws -> SignInWithIdpResponse {
        let body = try await RequestBody.decode(SignInWithIdpRequest.self, from: request, context: context)
        let answer = try await signIn.signIn(body, language: context.language(of: request), by: context.caller(of: request), logger: context.logger)
        var response = Self.response(answer.asserted, returningRefreshToken: body.returnRefreshToken == true)
        switch answer.outcome {
        case .signedIn(let result, let recycled):
            response.localId = result.account.id
            response.answer(result)
            response.isNewUser = result.isNewUser ? true : nil
            response.emailRecycled = recycled ? true : nil
            if let email = answer.asserted.identity.email, result.account.email == email { response.emailVerified = result.account.isEmailVerified }
        case .needsConfirmation(let accountID, let verifiedProviders, let pendingToken):
            (response.needConfirmation, response.localId, response.verifiedProvider, response.pendingToken) = (true, accountID, verifiedProviders, pendingToken)
        case .credentialInUse(let refusal, let pendingToken):
            (response.errorMessage, response.pendingToken) = (refusal.code, pendingToken)
        }
        return response
    }

    /// What the provider says of the user (spec "Claims → fields"), and the tokens it handed over.
    static func response(_ asserted: AssertedIdentity, returningRefreshToken: Bool) -> SignInWithIdpResponse {
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
