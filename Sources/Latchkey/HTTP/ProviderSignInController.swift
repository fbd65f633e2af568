import Hummingbird
import LatchkeyWire

/// `accounts:signInWithIdp` (v3 `verifyAssertion`): sign in, sign up or link with an identity provider's ID token.
///
/// The credential is checked against the provider before anything is written: a provider that is down, slow or lies
/// is `INVALID_IDP_RESPONSE` and nothing changes.
struct ProviderSignInController {
    let providers: IdentityProvidersConfiguration
    let verifier: IDTokenVerifier
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
        let credential = try ProviderCredential(requestURI: body.requestUri, postBody: body.postBody)
        if let error = credential["error"] { throw error == "access_denied" ? SignInError.userCancelled : SignInError.invalidIDPResponse(error) }
        guard let providerID = credential["providerId"]?.lowercased() else { throw SignInError.invalidCredentialOrProviderID(credential.requestURI) }
        guard let provider = providers.provider(providerID), provider.isEnabled else { throw SignInError.operationNotAllowed }
        guard let idToken = credential["id_token"] else {
            // Codes come back from flows Latchkey starts (createAuthUri); access tokens cannot be checked for their audience.
            throw SignInError.invalidIDPResponse("an id_token is required")
        }
        let identity: VerifiedIdentity
        do throws(ProviderFailure) {
            identity = try await verifier.verify(idToken, from: provider, nonce: .hashOf(credential["nonce"]))
        } catch {
            switch error {
            case .invalidNonce: throw SignInError.missingOrInvalidNonce
            case .invalidResponse(let reason): throw SignInError.invalidIDPResponse(reason)
            }
        }
        var linking: IDTokenClaims?
        if let token = body.idToken, !token.isEmpty { linking = try await lookup.authenticate(idToken: token).claims }
        var response = Self.response(identity)
        do {
            switch try await signIn.signIn(identity, linking: linking, autoCreate: body.autoCreate ?? true, by: caller, logger: context.logger) {
            case .signedIn(let session, let recycled):
                response.localId = session.account.id
                response.idToken = session.idToken
                response.refreshToken = session.refreshToken
                response.expiresIn = String(session.expiresIn)
                response.isNewUser = session.isNewUser ? true : nil
                response.emailRecycled = recycled ? true : nil
                if let email = identity.email, session.account.email == email { response.emailVerified = session.account.isEmailVerified }
            case .needsConfirmation(let accountID, let verifiedProviders):
                response.localId = accountID
                response.needConfirmation = true
                response.verifiedProvider = verifiedProviders
            }
        } catch let refusal as SignInError where body.returnIdpCredential == true && [.federatedUserIDAlreadyLinked, .emailExists].contains(refusal) {
            // The SDKs' "credential already in use": the credential comes back so the app can sign in with it instead.
            response.errorMessage = refusal.code
        }
        return response
    }

    /// What the provider says of the user (spec "Claims → fields").
    static func response(_ identity: VerifiedIdentity) -> SignInWithIdpResponse {
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
        return response
    }
}
