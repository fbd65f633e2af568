/// Firebase's `CreateAuthUriRequest` (`accounts:createAuthUri`): how an address can sign in (`identifier`), or the
/// start of a sign-in with a provider (`providerId`).
public struct CreateAuthUriRequest: Sendable, Codable, Equatable {
    /// The email address asked about.
    public var identifier: String?
    /// With `providerId`: where the provider sends the browser back. Otherwise ignored, whatever its type.
    public var continueUri: String?
    /// The provider to sign in with (`oidc.corp`, `google.com`, …).
    public var providerId: String?
    /// Scopes beyond the provider's own: space- or comma-separated, or (as some clients send it) an object whose value
    /// for the provider is.
    public var oauthScope: String?
    /// Extra authorization parameters (`prompt`, `login_hint`, …).
    public var customParameter: [String: String]?
    /// The caller's own id for the sign-in; one is made when absent.
    public var sessionId: String?
    /// Anything the caller wants back from `signInWithIdp`.
    public var context: String?

    public init(
        identifier: String?, continueUri: String? = nil, providerId: String? = nil, oauthScope: String? = nil,
        customParameter: [String: String]? = nil, sessionId: String? = nil, context: String? = nil
    ) {
        self.identifier = identifier
        self.continueUri = continueUri
        self.providerId = providerId
        self.oauthScope = oauthScope
        self.customParameter = customParameter
        self.sessionId = sessionId
        self.context = context
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        continueUri = container.decodeLenientString(forKey: .continueUri)
        providerId = try container.decodeIfPresent(String.self, forKey: .providerId)
        customParameter = try container.decodeIfPresent([String: String].self, forKey: .customParameter)
        sessionId = try container.decodeIfPresent(String.self, forKey: .sessionId)
        context = try container.decodeIfPresent(String.self, forKey: .context)
        if let scopes = try? container.decodeIfPresent(String.self, forKey: .oauthScope) {
            oauthScope = scopes
        } else if let byProvider = try container.decodeIfPresent([String: String].self, forKey: .oauthScope) {
            oauthScope = providerId.flatMap { byProvider[$0] }
        }
    }
}
