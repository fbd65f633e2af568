import LatchkeyDomain
import LatchkeyWire

/// `accounts:createAuthUri` as one call: with `providerId`, a provider sign-in started (`ProviderAuthorization`); with
/// `identifier` (also), how that address signs in, unless enumeration protection keeps it quiet (`AccountLookup`).
package struct AuthURIs: Sendable {
    let authorization: ProviderAuthorization
    let lookup: AccountLookup
    let authorizedDomains: Set<String>

    package init(authorization: ProviderAuthorization, lookup: AccountLookup, authorizedDomains: Set<String>) {
        self.authorization = authorization
        self.lookup = lookup
        self.authorizedDomains = authorizedDomains
    }

    /// What the answer carries: the provider's URL and the sign-in's session when one started, else a fresh session
    /// id; and the address's sign-in options when they may be told.
    package struct Created: Sendable {
        package var providerID: String?
        package var authURI: String?
        package var sessionID: String
        package var options: SignInOptions?
    }

    package func create(_ request: CreateAuthUriRequest) async throws -> Created {
        let providerID = request.providerId.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let identifier = request.identifier.flatMap { $0.isEmpty ? nil : $0 }
        guard providerID != nil || identifier != nil else { throw SignInError.missingIdentifier }
        let email = try identifier.map { raw throws(SignInError) in
            guard let email = EmailAddress(raw) else { throw .invalidIdentifier }
            return email
        }
        var created = Created(providerID: providerID, sessionID: "")
        if let providerID {
            var start = ProviderAuthorization.Start(
                providerID: providerID, redirectURI: try ProviderAuthorization.redirectURI(request.continueUri, authorizedDomains: authorizedDomains),
                sessionID: request.sessionId)
            start.scopes = ProviderAuthorization.scopes(request.oauthScope)
            start.customParameters = request.customParameter ?? [:]
            start.context = request.context
            let started = try await authorization.start(start).get()
            (created.authURI, created.sessionID) = (started.authURI, started.sessionID)
        } else {
            created.sessionID = ServerSecret.makeToken(bytes: 16)
        }
        if let email { created.options = try await lookup.signInOptions(for: email) }
        return created
    }
}
