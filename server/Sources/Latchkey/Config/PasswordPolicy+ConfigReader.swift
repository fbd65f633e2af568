import LatchkeyDomain

/// The project's password policy, in the shape of Firebase's `passwordPolicyConfig` as the Admin SDKs' project config
/// writes it (`enforcementState`, `forceUpgradeOnSignin`, `constraints`), with Firebase's bounds. Without the section
/// nothing changes: the policy is off, and a new password keeps the rules every password has (6 characters to 4096
/// bytes, no control characters).
///
/// - `passwordPolicy.enforcementState` (`"OFF"`, the default, or `"ENFORCE"`): with `ENFORCE`, sign-up, a password
///   change (`accounts:update`), a reset (`accounts:resetPassword`) and an admin's creation refuse a password that
///   misses a requirement, with `PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [...]`. Either
///   way `GET /v2/passwordPolicy` publishes the policy, which the JS SDK's `validatePassword` checks against.
/// - `passwordPolicy.forceUpgradeOnSignin` (boolean, default `false`): with `ENFORCE`, a password sign-in whose
///   password misses a requirement is refused the same way, until the password is reset to one that complies.
/// - `passwordPolicy.constraints.minLength` (integer, default `6`, 6 to 30): the fewest characters.
/// - `passwordPolicy.constraints.maxLength` (integer, default `4096`, `minLength` to 4096): the most characters.
/// - `passwordPolicy.constraints.requireUppercase`, `requireLowercase`, `requireNumeric`, `requireNonAlphanumeric`
///   (booleans, default `false`): a letter from A to Z, one from a to z, a digit from 0 to 9, one of
///   `` ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` ``.
extension PasswordPolicy {
    init(_ read: inout ConfigSectionReader) {
        let minimumLength = read.int(
            "passwordPolicy.constraints.minLength", default: PasswordHasher.minimumLength, in: Self.minimumLengths)
        self.init(
            enforcement: read.choice("passwordPolicy.enforcementState", default: Enforcement.off),
            forceUpgradeOnSignIn: read.bool("passwordPolicy.forceUpgradeOnSignin") ?? false,
            minimumLength: minimumLength,
            maximumLength: read.int(
                "passwordPolicy.constraints.maxLength", default: Self.longestMaximumLength, in: minimumLength...Self.longestMaximumLength),
            requiresUppercase: read.bool("passwordPolicy.constraints.requireUppercase") ?? false,
            requiresLowercase: read.bool("passwordPolicy.constraints.requireLowercase") ?? false,
            requiresNumeric: read.bool("passwordPolicy.constraints.requireNumeric") ?? false,
            requiresNonAlphanumeric: read.bool("passwordPolicy.constraints.requireNonAlphanumeric") ?? false)
    }
}
