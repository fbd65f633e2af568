/// Identity Toolkit v2's `projects/{p}/config` resource, as far as Latchkey has it: the second-factor settings
/// (`mfa`), the password policy (`passwordPolicyConfig`) and the regions texts go to (`smsRegionConfig`), read from the
/// configuration file.
public struct ProjectConfigResource: Sendable, Codable, Equatable {
    /// Firebase's `MultiFactorAuthConfig`.
    public struct MultiFactorAuthConfig: Sendable, Codable, Equatable {
        public var state: String
        /// `PHONE_SMS` while second factors are on: the factors besides the `providerConfigs` ones.
        public var enabledProviders: [String]
        public var providerConfigs: [ProviderConfig]

        public init(state: String, enabledProviders: [String] = [], providerConfigs: [ProviderConfig]) {
            self.state = state
            self.enabledProviders = enabledProviders
            self.providerConfigs = providerConfigs
        }
    }

    /// Firebase's `SmsRegionConfig`: every region but `allowByDefault.disallowedRegions`, or `allowlistOnly.allowedRegions`
    /// alone.
    public struct SmsRegionConfig: Sendable, Codable, Equatable {
        public struct AllowByDefault: Sendable, Codable, Equatable {
            public var disallowedRegions: [String]
        }

        public struct AllowlistOnly: Sendable, Codable, Equatable {
            public var allowedRegions: [String]
        }

        public var allowByDefault: AllowByDefault?
        public var allowlistOnly: AllowlistOnly?

        public init(disallowedRegions: [String]) {
            allowByDefault = AllowByDefault(disallowedRegions: disallowedRegions)
        }

        public init(allowedRegions: [String]) {
            allowlistOnly = AllowlistOnly(allowedRegions: allowedRegions)
        }
    }

    /// One second factor's settings: TOTP's (a phone factor has none).
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
    public var smsRegionConfig: SmsRegionConfig?

    public init(
        name: String, mfa: MultiFactorAuthConfig, authorizedDomains: [String], passwordPolicyConfig: PasswordPolicyConfig? = nil,
        smsRegionConfig: SmsRegionConfig? = nil
    ) {
        self.name = name
        self.mfa = mfa
        self.authorizedDomains = authorizedDomains
        self.passwordPolicyConfig = passwordPolicyConfig
        self.smsRegionConfig = smsRegionConfig
    }
}
