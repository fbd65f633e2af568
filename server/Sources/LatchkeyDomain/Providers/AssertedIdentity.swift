/// An identity a provider vouched for, with what else it handed over: what `accounts:signInWithIdp` answers besides
/// the sign-in itself.
package struct AssertedIdentity: Sendable {
    package var identity: VerifiedIdentity
    package var accessToken: String?
    package var accessTokenLifetime: Int?
    package var refreshToken: String?
    /// The `context` given to `createAuthUri`.
    package var context: String?

    package init(
        identity: VerifiedIdentity, accessToken: String? = nil, accessTokenLifetime: Int? = nil, refreshToken: String? = nil, context: String? = nil
    ) {
        self.identity = identity
        self.accessToken = accessToken
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshToken = refreshToken
        self.context = context
    }
}

/// Where a provider sign-in learns who signs in (Federation's `ProviderAssertion`): the credential checked with its
/// provider, and an identity kept for a `pendingToken`.
package protocol IdentityAssertion: Sendable {
    /// The identity behind what `signInWithIdp` received: a `pendingToken`, the answer to a sign-in `createAuthUri`
    /// started (`requestUri`, `postBody`, `sessionId`), or a credential the app obtained itself.
    func assert(requestURI: String?, postBody: String?, sessionID: String?, pendingToken: String?) async throws -> AssertedIdentity
    /// Keeps `asserted` for a `pendingToken`, which it returns.
    func keep(_ asserted: AssertedIdentity) async throws -> String
}
