import Foundation
import LatchkeyDomain

/// Starts a sign-in with a provider (`createAuthUri` with `providerId`, spec §3.3): keeps a single-use session and
/// answers the provider's authorization URL, carrying the session's `state`, a nonce and, for the code flow, a PKCE
/// challenge.
package struct ProviderAuthorization: Sendable {
    /// What the caller asks for.
    package struct Start: Sendable {
        package var providerID: String
        /// Where the provider sends the browser back: checked already (`redirectURI(_:authorizedDomains:)`).
        package var redirectURI: String
        /// The caller's `sessionId`, or nil for a fresh one.
        package var sessionID: String?
        /// Scopes beyond the provider's own.
        package var scopes: [String] = []
        /// Extra authorization parameters (`prompt`, `login_hint`, …); those Latchkey sets itself are dropped.
        package var customParameters: [String: String] = [:]
        package var context: String?
        package var handoff: String?

        package init(providerID: String, redirectURI: String, sessionID: String? = nil) {
            self.providerID = providerID
            self.redirectURI = redirectURI
            self.sessionID = sessionID
        }
    }

    /// Parameters a caller cannot set: they are what makes the request this sign-in's.
    static let reservedParameters: Set<String> = [
        "client_id", "response_type", "scope", "redirect_uri", "state", "nonce", "code_challenge", "code_challenge_method", "response_mode",
        // A request object (JAR) could carry every one of those again.
        "request", "request_uri",
    ]

    let providers: ProviderDirectory
    let discovery: ProviderDiscovery
    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock

    package init(providers: ProviderDirectory, discovery: ProviderDiscovery, store: any Store, secret: ServerSecret, clock: any WallClock) {
        self.providers = providers
        self.discovery = discovery
        self.store = store
        self.secret = secret
        self.clock = clock
    }

    /// A `continueUri` a provider may send the browser back to: a continue URL as email links take them (absolute https,
    /// http only for local hosts, on one of `authorizedDomains`), without fragment or `state` parameter (the provider
    /// adds its own).
    package static func redirectURI(_ text: String?, authorizedDomains: Set<String>) throws(SignInError) -> String {
        guard let text, !text.isEmpty else { throw .missingContinueURI }
        guard let host = ActionCodeSettings.host(ofContinueURL: text), let url = URLComponents(string: text) else { throw .invalidContinueURI }
        guard url.fragment == nil, !(url.queryItems ?? []).contains(where: { $0.name == "state" }) else { throw .reservedContinueURI }
        guard authorizedDomains.contains(host) else { throw .unauthorizedDomain }
        return text
    }

    /// Scopes given as one string (`oauthScope`, the SDKs' `scopes`): separated by spaces or commas.
    package static func scopes(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    }

    /// A sign-in started: the provider's authorization URL, the session id and the state.
    package struct Started: Sendable {
        package var authURI: String
        package var sessionID: String
        package var state: String
    }

    /// The sign-in `state` names while it can still be handed over (the hosted handler page); nothing is used up, since
    /// `signInWithIdp` finishes it.
    package func session(state: String) async throws -> ProviderSession? {
        let hash = secret.hash(state, for: .providerState)
        guard let session = try await store.read({ try await $0.providerSession(stateHash: hash) }), session.expiresAt > clock.now else { return nil }
        return session
    }

    /// Keeps the session and returns the provider's authorization URL; a provider unknown, disabled or unreachable is a
    /// refusal returned, not thrown, so that the hosted handler page can hand it back to the app.
    package func start(_ request: Start) async throws -> Verdict<Started> {
        guard let provider = try await providers.provider(request.providerID) else { return .refused(.invalidProviderID) }
        guard provider.isEnabled else { return .refused(.operationNotAllowed) }
        let metadata: ProviderMetadata
        do throws(ProviderFailure) {
            metadata = try await discovery.metadata(for: provider)
        } catch {
            return .refused(SignInError(error))
        }
        let secrets = ProviderSession.Secrets(secret: secret)
        // A caller's id is kept when it is a plausible one (the iOS SDK's is 64 hex digits); otherwise one is made.
        let given = request.sessionID.flatMap { (1...256).contains($0.utf8.count) && !$0.containsControlCharacters ? $0 : nil }
        let sessionID = given ?? ServerSecret.makeToken(bytes: 16)
        let now = clock.now
        let session = ProviderSession(
            stateHash: secret.hash(secrets.state, for: .providerState), sessionID: sessionID, providerID: provider.providerID,
            redirectURI: request.redirectURI, context: request.context, handoff: request.handoff, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(providers.file.authSessionTTLSeconds)))
        try await store.write { try await $0.insert(session) }
        let authURI = Self.authorizationURL(metadata.authorizationEndpoint, provider: provider, request: request, secrets: secrets)
        return .accepted(Started(authURI: authURI, sessionID: sessionID, state: secrets.state))
    }

    static func authorizationURL(_ endpoint: URL, provider: IdentityProviderSettings, request: Start, secrets: ProviderSession.Secrets) -> String {
        var scopes: [String] = []
        for scope in provider.scopes + request.scopes where !scopes.contains(scope) { scopes.append(scope) }
        var query = [
            ("client_id", provider.clientID), ("redirect_uri", request.redirectURI), ("scope", scopes.joined(separator: " ")),
            ("state", secrets.state), ("nonce", secrets.nonce),
        ]
        switch provider.responseType {
        case .code:
            query.insert(("response_type", "code"), at: 1)
            if provider.usesPKCE { query += [("code_challenge", secrets.codeChallenge), ("code_challenge_method", "S256")] }
        case .idToken:
            query.insert(("response_type", "id_token"), at: 1)
            query.append(("response_mode", "fragment"))
        }
        for (name, value) in request.customParameters.sorted(by: { $0.key < $1.key }) where !reservedParameters.contains(name) {
            query.append((name, value))
        }
        let existing = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)?.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
        var base = endpoint.absoluteString
        if let queryStart = base.firstIndex(of: "?") { base = String(base[..<queryStart]) }
        return base + "?" + [existing, QueryString.encode(query)].compactMap { $0 }.joined(separator: "&")
    }
}

extension SignInError {
    /// A provider that is down or lies is the credential's fault as far as the caller can tell.
    init(_ failure: ProviderFailure) {
        switch failure {
        case .invalidNonce: self = .missingOrInvalidNonce
        case .invalidResponse(let reason): self = .invalidIDPResponse(reason)
        }
    }
}
