/// Identity Toolkit v2's `projects/{p}/config` resource, as far as Latchkey has it: the second-factor settings
/// (`mfa`) and the password policy (`passwordPolicyConfig`), read from the configuration file.
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

    /// Firebase's `PasswordPolicyConfig` (the admin API's `GoogleCloudIdentitytoolkitAdminV2PasswordPolicyConfig`;
    /// firebase-admin-node's `PasswordPolicyAuthServerConfig`, which `getProjectConfig()` reads).
    public struct PasswordPolicyConfig: Sendable, Codable, Equatable {
        /// One version of the policy: Firebase keeps exactly one.
        public struct Version: Sendable, Codable, Equatable {
            public var customStrengthOptions: GetPasswordPolicyResponse.CustomStrengthOptions

            public init(customStrengthOptions: GetPasswordPolicyResponse.CustomStrengthOptions) {
                self.customStrengthOptions = customStrengthOptions
            }
        }

        /// `OFF` or `ENFORCE`.
        public var passwordPolicyEnforcementState: String
        public var forceUpgradeOnSignin: Bool
        public var passwordPolicyVersions: [Version]

        public init(passwordPolicyEnforcementState: String, forceUpgradeOnSignin: Bool, passwordPolicyVersions: [Version]) {
            self.passwordPolicyEnforcementState = passwordPolicyEnforcementState
            self.forceUpgradeOnSignin = forceUpgradeOnSignin
            self.passwordPolicyVersions = passwordPolicyVersions
        }
    }

    /// `projects/{projectId}/config`.
    public var name: String
    public var mfa: MultiFactorAuthConfig
    public var authorizedDomains: [String]
    public var passwordPolicyConfig: PasswordPolicyConfig?

    public init(name: String, mfa: MultiFactorAuthConfig, authorizedDomains: [String], passwordPolicyConfig: PasswordPolicyConfig? = nil) {
        self.name = name
        self.mfa = mfa
        self.authorizedDomains = authorizedDomains
        self.passwordPolicyConfig = passwordPolicyConfig
    }
}
