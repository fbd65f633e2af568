import Foundation
import LatchkeyDomain

/// Turns what `signInWithIdp` received into an identity the provider vouches for (spec §4.2): a `pendingToken`, the
/// answer to a sign-in `createAuthUri` started (its `state`, then a code to exchange or an ID token), or a credential
/// the app obtained itself. Nothing is written but the used session's or `pendingToken`'s removal, so a failure changes
/// no account.
package struct ProviderAssertion: IdentityAssertion {
    let providers: ProviderDirectory
    let discovery: ProviderDiscovery
    let verifier: IDTokenVerifier
    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock

    package init(
        providers: ProviderDirectory, discovery: ProviderDiscovery, verifier: IDTokenVerifier, store: any Store, secret: ServerSecret,
        clock: any WallClock
    ) {
        self.providers = providers
        self.discovery = discovery
        self.verifier = verifier
        self.store = store
        self.secret = secret
        self.clock = clock
    }

    package func assert(requestURI: String?, postBody: String?, sessionID: String?, pendingToken: String?) async throws -> AssertedIdentity {
        if let pendingToken, !pendingToken.isEmpty { return try await pending(pendingToken) }
        let credential = try ProviderCredential(requestURI: requestURI, postBody: postBody)
        if let error = credential["error"] { throw error == "access_denied" ? SignInError.userCancelled : SignInError.invalidIDPResponse(error) }
        var session: ProviderSession?
        if let state = credential["state"] { session = try await take(state: state, sessionID: sessionID, credential: credential) }
        guard let providerID = session?.providerID ?? credential["providerId"]?.lowercased() else {
            throw SignInError.invalidCredentialOrProviderID(credential.requestURI)
        }
        guard let provider = try await providers.provider(providerID), provider.isEnabled else { throw SignInError.operationNotAllowed }
        // A flow Latchkey started checks the nonce it sent; a credential the app obtained, the one the app hashed.
        let secrets = credential["state"].map { ProviderSession.Secrets(state: $0, secret: secret) }
        let nonce = secrets.map { IDTokenVerifier.NonceCheck.equals($0.nonce) } ?? .hashOf(credential["nonce"])
        do throws(ProviderFailure) {
            if let code = credential["code"] {
                let metadata = try await discovery.metadata(for: provider)
                let tokens = try await CodeExchange(http: discovery.http).exchange(
                    code, redirectURI: session?.redirectURI ?? credential.requestURI,
                    codeVerifier: provider.usesPKCE ? secrets?.codeVerifier : nil, provider: provider, metadata: metadata)
                let identity = try await verifier.verify(tokens.idToken, from: provider, nonce: nonce)
                return AssertedIdentity(
                    identity: identity, accessToken: tokens.accessToken, accessTokenLifetime: tokens.expiresIn, refreshToken: tokens.refreshToken,
                    context: session?.context)
            }
            if credential["id_token"] == nil, let accessToken = credential["access_token"], provider.providerID == BuiltInIdentityProvider.facebook.rawValue {
                // The SDKs build their credential from `oauthAccessToken`: the answer hands the token back.
                let identity = try await FacebookGraph(http: discovery.http).verify(accessToken: accessToken, from: provider)
                return AssertedIdentity(identity: identity, accessToken: accessToken, context: session?.context)
            }
            // Any other access token alone proves nothing: its audience cannot be checked.
            guard let idToken = credential["id_token"] else { throw ProviderFailure.invalidResponse("an id_token or a code is required") }
            var identity = try await verifier.verify(idToken, from: provider, nonce: nonce)
            if provider.providerID == BuiltInIdentityProvider.apple.rawValue { Self.addName(credential["user"], to: &identity) }
            return AssertedIdentity(identity: identity, context: session?.context)
        } catch {
            throw SignInError(error)
        }
    }

    /// Keeps `asserted`'s identity for a `pendingToken`, bound to the account it is for (the one the identity signs in
    /// to, else the one holding its address), and returns the token.
    package func keep(_ asserted: AssertedIdentity) async throws -> String {
        let token = ServerSecret.makeToken()
        let (identity, now) = (asserted.identity, clock.now)
        let kept = PendingCredential(
            tokenHash: secret.hash(token, for: .pendingCredential), identity: identity, context: asserted.context,
            expiresAt: now.addingTimeInterval(TimeInterval(providers.file.pendingTokenTTLSeconds)), keptAt: now)
        try await store.write { transaction in
            var credential = kept
            if let linked = try await transaction.identity(providerID: identity.providerID, providerUserID: identity.subject) {
                (credential.accountID, credential.isLinked) = (linked.accountID, true)
            } else if let email = identity.email {
                credential.accountID = try await transaction.account(email: email)?.id
            }
            try await transaction.insert(credential)
        }
        return token
    }

    /// The identity a `pendingToken` kept, which it gives once: not after its account is gone, its sessions were
    /// revoked since, or (for a linked identity) the identity was unlinked from it.
    private func pending(_ token: String) async throws -> AssertedIdentity {
        let hash = secret.hash(token, for: .pendingCredential)
        let now = clock.now
        let credential = try await store.write { transaction -> PendingCredential? in
            guard let credential = try await transaction.takePendingCredential(tokenHash: hash), credential.expiresAt > now else { return nil }
            guard let accountID = credential.accountID else { return credential }
            guard let account = try await transaction.account(id: accountID), account.validSince <= credential.keptAt else { return nil }
            guard credential.isLinked else { return credential }
            let linked = try await transaction.identity(providerID: credential.identity.providerID, providerUserID: credential.identity.subject)
            return linked?.accountID == accountID ? credential : nil
        }
        guard let credential else { throw SignInError.invalidPendingToken }
        guard try await providers.provider(credential.identity.providerID)?.isEnabled == true else { throw SignInError.operationNotAllowed }
        return AssertedIdentity(identity: credential.identity, context: credential.context)
    }

    /// Uses up the session `state` names, which must be current, this caller's and answered at its redirect URI.
    private func take(state: String, sessionID: String?, credential: ProviderCredential) async throws -> ProviderSession {
        let hash = secret.hash(state, for: .providerState)
        guard let session = try await store.write({ try await $0.takeProviderSession(stateHash: hash) }), session.expiresAt > clock.now else {
            throw SignInError.invalidIDPResponse("the sign-in is unknown, used or expired")
        }
        guard session.isSession(sessionID) else { throw SignInError.invalidIDPResponse("the sessionId is not the sign-in's") }
        guard Self.redirectBase(credential.requestURI) == Self.redirectBase(session.redirectURI) else {
            throw SignInError.invalidIDPResponse("the requestUri is not the sign-in's continueUri")
        }
        if let named = credential["providerId"], named.lowercased() != session.providerID {
            throw SignInError.invalidIDPResponse("the providerId is not the sign-in's")
        }
        return session
    }

    /// Apple puts no name in its ID tokens: its SDK hands the app the name once, at the first sign-in, and the iOS SDK
    /// sends it along as `user` (`{"name":{"firstName":…,"lastName":…}}`).
    static func addName(_ user: String?, to identity: inout VerifiedIdentity) {
        struct User: Decodable {
            struct Name: Decodable {
                let firstName: String?
                let lastName: String?
            }
            let name: Name?
        }
        guard identity.displayName == nil, let user, let name = (try? JSONDecoder().decode(User.self, from: Data(user.utf8)))?.name else { return }
        func clean(_ text: String?) -> String? {
            text.flatMap { $0.isEmpty || $0.count > 256 || $0.containsControlCharacters ? nil : $0 }
        }
        (identity.firstName, identity.lastName) = (clean(name.firstName), clean(name.lastName))
        let full = [identity.firstName, identity.lastName].compactMap { $0 }.joined(separator: " ")
        identity.displayName = full.isEmpty ? nil : full
    }

    /// Scheme, host, port and path: what a provider cannot change when it sends the browser back.
    static func redirectBase(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)\(url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)"
    }
}
