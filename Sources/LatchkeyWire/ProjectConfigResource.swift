/// Identity Toolkit v2's `projects/{p}/config` resource, as far as Latchkey has it: the second-factor settings
/// (`mfa`), read from the configuration file.
public struct ProjectConfigResource: Sendable, Codable, Equatable {
    /// Firebase's `MultiFactorAuthConfig`.
    public struct MultiFactorAuthConfig: Sendable, Codable, Equatable {
        public var state: String
        public var providerConfigs: [ProviderConfig]

        public init(state: String, providerConfigs: [ProviderConfig]) {
            self.state = state
            self.providerConfigs = providerConfigs
        }
    }

    /// One second factor's settings; Latchkey's only factor is TOTP.
    public struct ProviderConfig: Sendable, Codable, Equatable {
        public struct TotpProviderConfig: Sendable, Codable, Equatable {
            public var adjacentIntervals: Int

            public init(adjacentIntervals: Int) {
                self.adjacentIntervals = adjacentIntervals
            }
        }

        public var state: String
        public var totpProviderConfig: TotpProviderConfig

        public init(state: String, totpProviderConfig: TotpProviderConfig) {
            self.state = state
            self.totpProviderConfig = totpProviderConfig
        }
    }

    /// `projects/{projectId}/config`.
    public var name: String
    public var mfa: MultiFactorAuthConfig
    public var authorizedDomains: [String]

    public init(name: String, mfa: MultiFactorAuthConfig, authorizedDomains: [String]) {
        self.name = name
        self.mfa = mfa
        self.authorizedDomains = authorizedDomains
    }
}
