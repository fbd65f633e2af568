import LatchkeyDomain
import LatchkeyWire

extension GetPasswordPolicyResponse {
    /// `policy` as Firebase publishes it, every requirement stated (the JS SDK reads a false one as an absent one).
    init(_ policy: PasswordPolicy) {
        self.init(
            customStrengthOptions: CustomStrengthOptions(
                minPasswordLength: policy.minimumLength, maxPasswordLength: policy.maximumLength,
                containsLowercaseCharacter: policy.requiresLowercase, containsUppercaseCharacter: policy.requiresUppercase,
                containsNumericCharacter: policy.requiresNumeric, containsNonAlphanumericCharacter: policy.requiresNonAlphanumeric),
            allowedNonAlphanumericCharacters: PasswordPolicy.nonAlphanumericCharacters.map(String.init),
            enforcementState: policy.enforcement.rawValue, forceUpgradeOnSignin: policy.forceUpgradeOnSignIn,
            schemaVersion: PasswordPolicy.schemaVersion)
    }
}
