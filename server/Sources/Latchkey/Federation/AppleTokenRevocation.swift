import Foundation
import LatchkeyDomain
import LatchkeyWire
import Logging

/// `accounts:revokeToken`: revokes a signed-in user's Sign in with Apple tokens at Apple, which App Store rules ask an
/// app to do when it deletes the account. The app hands over an authorization code (iOS: `tokenType` 3, exchanged here
/// for its refresh token first) or a token (the JS SDK's access token); Latchkey calls Apple's revocation endpoint
/// (from Apple's discovery document, so a test's `issuer` override reaches a local stub) with a `client_secret` the
/// provider's Apple key signs for this one call. Whatever goes wrong at Apple is an `INVALID_IDP_RESPONSE`, never a 500.
///
/// Only an account that signs in with Apple may ask, and each call counts against the per-IP completion limit: every
/// call spends the developer's Apple key on one or two calls to Apple.
struct AppleTokenRevocation: Sendable {
    let lookup: AccountLookup
    let providers: ProviderDirectory
    let discovery: ProviderDiscovery
    let limiter: RateLimiter
    let clock: any WallClock

    func revoke(_ request: RevokeTokenRequest, by caller: Caller, logger: Logger) async throws -> RevokeTokenResponse {
        try Tenancy.requireNoTenant(request.tenantId)
        guard request.providerId == BuiltInIdentityProvider.apple.rawValue else { throw SignInError.invalidProviderID }
        guard let idToken = request.idToken, !idToken.isEmpty else { throw SignInError.missingIDToken }
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let user = try await lookup.user(idToken: idToken)
        guard user.identities.contains(where: { $0.providerID == BuiltInIdentityProvider.apple.rawValue }) else {
            throw SignInError.noSuchProvider
        }
        guard let token = request.token, !token.isEmpty else { throw SignInError.invalidArgument("token is required") }
        guard let type = request.tokenType else { throw SignInError.invalidArgument("tokenType is required") }
        guard let settings = try await providers.provider(BuiltInIdentityProvider.apple.rawValue), settings.isEnabled,
            let key = settings.appleKey
        else { throw SignInError.operationNotAllowed }
        do {
            let metadata = try await discovery.metadata(for: settings)
            let secret = try clientSecret(key, settings)
            let (revoked, hint) = type == .code ? try await tokens(of: token, settings, metadata, secret) : (token, hint(type))
            try await call(revoked, hint: hint, settings, metadata, secret)
        } catch {
            guard case .invalidResponse(let reason) = error else { throw SignInError.invalidIDPResponse("Apple refused the revocation") }
            logger.notice("Apple token revocation failed", metadata: ["account": "\(user.account.id)", "reason": "\(reason)"])
            throw SignInError.invalidIDPResponse(reason)
        }
        logger.info("Apple tokens revoked", metadata: ["account": "\(user.account.id)"])
        return RevokeTokenResponse()
    }

    private func hint(_ type: RevokeTokenRequest.TokenType) -> String {
        type == .refreshToken ? "refresh_token" : "access_token"
    }

    private func clientSecret(_ key: AppleClientSecretSigner, _ settings: IdentityProviderSettings) throws(ProviderFailure) -> String {
        do {
            return try key.secret(clientID: settings.clientID, issuer: settings.issuer.absoluteString, at: clock.now)
        } catch {
            throw .invalidResponse("the Apple key could not sign a client secret")
        }
    }

    /// The token an authorization code is exchanged for (Apple's token endpoint, `client_secret_post`), with its
    /// `token_type_hint`: the refresh token, which revokes the whole grant, or else the access token.
    private func tokens(
        of code: String, _ settings: IdentityProviderSettings, _ metadata: ProviderMetadata, _ secret: String
    ) async throws(ProviderFailure) -> (token: String, hint: String) {
        guard let endpoint = metadata.tokenEndpoint else { throw .invalidResponse("discovery failed: no token_endpoint") }
        let form = [("grant_type", "authorization_code"), ("code", code), ("client_id", settings.clientID), ("client_secret", secret)]
        let answer = try await discovery.http.post(endpoint, form: form, "token exchange")
        guard answer.status == 200, case .object(let fields)? = try? JSONParser.parse(answer.body) else {
            throw .invalidResponse("token exchange answered HTTP \(answer.status) without a token")
        }
        if case .string(let token)? = fields["refresh_token"] { return (token, "refresh_token") }
        if case .string(let token)? = fields["access_token"] { return (token, "access_token") }
        throw .invalidResponse("token exchange answered HTTP \(answer.status) without a token")
    }

    /// RFC 7009's revocation request, as Apple's `/auth/revoke` takes it.
    private func call(
        _ token: String, hint: String, _ settings: IdentityProviderSettings, _ metadata: ProviderMetadata, _ secret: String
    ) async throws(ProviderFailure) {
        guard let endpoint = metadata.revocationEndpoint else { throw .invalidResponse("discovery failed: no revocation_endpoint") }
        let form = [("client_id", settings.clientID), ("client_secret", secret), ("token", token), ("token_type_hint", hint)]
        let answer = try await discovery.http.post(endpoint, form: form, "revocation")
        guard answer.status == 200 else { throw .invalidResponse("revocation answered HTTP \(answer.status)") }
    }
}
