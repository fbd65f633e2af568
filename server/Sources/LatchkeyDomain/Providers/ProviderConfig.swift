import Foundation

/// An identity provider added at run time through the admin API (Firebase's `oauthIdpConfigs` and
/// `defaultSupportedIdpConfigs`), kept in the store beside the configuration file's, which stay read-only.
package struct ProviderConfig: Sendable, Equatable {
    /// Which admin resource it is.
    package enum Kind: String, Sendable {
        /// `oauthIdpConfigs/oidc.*`: an OpenID Connect provider of one's own, with its issuer.
        case oidc = "oauthIdpConfigs"
        /// `defaultSupportedIdpConfigs/<id>`: a built-in provider, whose issuer Latchkey knows.
        case builtIn = "defaultSupportedIdpConfigs"
    }

    package var providerID: String
    package var kind: Kind
    package var displayName: String?
    package var isEnabled: Bool
    /// The issuer of an `oidc.*` provider; nil for a built-in one.
    package var issuer: String?
    package var clientID: String
    /// The client secret, sealed under the server secret (`ServerSecret.SealPurpose.providerSecret`).
    package var sealedClientSecret: Data?
    package var responseType: ProviderResponseType
    package var createdAt: Date

    package init(
        providerID: String, kind: Kind, displayName: String? = nil, isEnabled: Bool, issuer: String? = nil, clientID: String,
        sealedClientSecret: Data? = nil, responseType: ProviderResponseType = .idToken, createdAt: Date
    ) {
        self.providerID = providerID
        self.kind = kind
        self.displayName = displayName
        self.isEnabled = isEnabled
        self.issuer = issuer
        self.clientID = clientID
        self.sealedClientSecret = sealedClientSecret
        self.responseType = responseType
        self.createdAt = createdAt
    }
}
