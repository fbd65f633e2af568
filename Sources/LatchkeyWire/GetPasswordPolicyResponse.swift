/// Firebase's answer to `GET /v2/passwordPolicy` (`GoogleCloudIdentitytoolkitV2PasswordPolicy` in firebase-tools'
/// `src/emulator/auth/schema.ts`; `GetPasswordPolicyResponse` in the JS SDK's
/// `packages/auth/src/api/password_policy/get_password_policy.ts`), which the JS SDK's `validatePassword` checks a
/// password against.
public struct GetPasswordPolicyResponse: Sendable, Codable, Equatable {
    public var customStrengthOptions: CustomStrengthOptions
    /// The characters that count as non-alphanumeric, one per item.
    public var allowedNonAlphanumericCharacters: [String]?
    /// `OFF` or `ENFORCE`.
    public var enforcementState: String
    public var forceUpgradeOnSignin: Bool?
    /// `1`: the JS SDK refuses a policy of any other version.
    public var schemaVersion: Int

    /// Firebase's `CustomStrengthOptions`: what a password must contain.
    public struct CustomStrengthOptions: Sendable, Codable, Equatable {
        public var minPasswordLength: Int?
        public var maxPasswordLength: Int?
        public var containsLowercaseCharacter: Bool?
        public var containsUppercaseCharacter: Bool?
        public var containsNumericCharacter: Bool?
        public var containsNonAlphanumericCharacter: Bool?

        public init(
            minPasswordLength: Int? = nil, maxPasswordLength: Int? = nil, containsLowercaseCharacter: Bool? = nil,
            containsUppercaseCharacter: Bool? = nil, containsNumericCharacter: Bool? = nil, containsNonAlphanumericCharacter: Bool? = nil
        ) {
            self.minPasswordLength = minPasswordLength
            self.maxPasswordLength = maxPasswordLength
            self.containsLowercaseCharacter = containsLowercaseCharacter
            self.containsUppercaseCharacter = containsUppercaseCharacter
            self.containsNumericCharacter = containsNumericCharacter
            self.containsNonAlphanumericCharacter = containsNonAlphanumericCharacter
        }
    }

    public init(
        customStrengthOptions: CustomStrengthOptions, allowedNonAlphanumericCharacters: [String]?, enforcementState: String,
        forceUpgradeOnSignin: Bool?, schemaVersion: Int
    ) {
        self.customStrengthOptions = customStrengthOptions
        self.allowedNonAlphanumericCharacters = allowedNonAlphanumericCharacters
        self.enforcementState = enforcementState
        self.forceUpgradeOnSignin = forceUpgradeOnSignin
        self.schemaVersion = schemaVersion
    }
}
