/// Identity Toolkit v2's `OAuthIdpConfig` (`projects/{p}/oauthIdpConfigs/oidc.*`): an OpenID Connect provider.
public struct OAuthIdpConfig: Sendable, Codable, Equatable {
    /// Which flow `createAuthUri` starts: exactly one is true.
    public struct ResponseType: Sendable, Codable, Equatable {
        public var code: Bool
        public var idToken: Bool

        public init(code: Bool, idToken: Bool) {
            self.code = code
            self.idToken = idToken
        }
    }

    /// `projects/{projectId}/oauthIdpConfigs/{providerId}`.
    public var name: String
    public var clientId: String
    public var issuer: String
    public var displayName: String?
    public var enabled: Bool
    /// Only of providers added through the API; those of the configuration file keep theirs to themselves.
    public var clientSecret: String?
    public var responseType: ResponseType

    public init(
        name: String, clientId: String, issuer: String, displayName: String?, enabled: Bool, clientSecret: String?, responseType: ResponseType
    ) {
        self.name = name
        self.clientId = clientId
        self.issuer = issuer
        self.displayName = displayName
        self.enabled = enabled
        self.clientSecret = clientSecret
        self.responseType = responseType
    }
}

/// Identity Toolkit v2's `DefaultSupportedIdpConfig` (`projects/{p}/defaultSupportedIdpConfigs/yahoo.com`): a
/// built-in provider.
public struct DefaultSupportedIdpConfig: Sendable, Codable, Equatable {
    /// `projects/{projectId}/defaultSupportedIdpConfigs/{idpId}`.
    public var name: String
    public var clientId: String
    public var clientSecret: String?
    public var enabled: Bool

    public init(name: String, clientId: String, clientSecret: String?, enabled: Bool) {
        self.name = name
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.enabled = enabled
    }
}

/// A page of `oauthIdpConfigs`; an empty list is `{}`.
public struct ListOAuthIdpConfigsResponse: Sendable, Codable, Equatable {
    public var oauthIdpConfigs: [OAuthIdpConfig]?
    public var nextPageToken: String?

    public init(oauthIdpConfigs: [OAuthIdpConfig]?, nextPageToken: String?) {
        self.oauthIdpConfigs = oauthIdpConfigs
        self.nextPageToken = nextPageToken
    }
}

/// A page of `defaultSupportedIdpConfigs`; an empty list is `{}`.
public struct ListDefaultSupportedIdpConfigsResponse: Sendable, Codable, Equatable {
    public var defaultSupportedIdpConfigs: [DefaultSupportedIdpConfig]?
    public var nextPageToken: String?

    public init(defaultSupportedIdpConfigs: [DefaultSupportedIdpConfig]?, nextPageToken: String?) {
        self.defaultSupportedIdpConfigs = defaultSupportedIdpConfigs
        self.nextPageToken = nextPageToken
    }
}

/// The answer to a delete: `{}`.
public struct EmptyResponse: Sendable, Codable, Equatable {
    public init() {}
}
