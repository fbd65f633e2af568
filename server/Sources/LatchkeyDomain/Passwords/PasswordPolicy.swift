/// The project's password policy, Firebase's `passwordPolicyConfig`: what a new password must contain, and whether
/// that is enforced (`ENFORCE`) or only published (`OFF`, the default, which changes nothing). The one place the
/// requirements are checked: `PasswordHasher.validate` asks it of every password being set (a sign-up, a change, a
/// reset, an admin's creation, as Firebase enforces it on the Admin SDKs' `create_user` too), and `PasswordAccounts`
/// of a password signing in when `forceUpgradeOnSignIn`.
///
/// The checks are the JS SDK's `validatePassword` (`packages/auth/src/core/auth/password_policy_impl.ts`), so that an
/// app's own check and the server's agree: length in characters, the letters and digits of ASCII, and the
/// non-alphanumeric characters Firebase allows (`allowedNonAlphanumericCharacters`). A refusal lists what is missing
/// in the backend's words and order, e.g. `Missing password requirements: [Password must contain at least 8
/// characters, Password must contain an upper case character]`.
package struct PasswordPolicy: Sendable, Equatable {
    /// Firebase's `enforcementState`.
    package enum Enforcement: String, Sendable, CaseIterable {
        case off = "OFF"
        case enforce = "ENFORCE"
    }

    /// Firebase's bounds on `minLength` (6 to 30) and `maxLength` (at most 4096).
    package static let minimumLengths = PasswordHasher.minimumLength...30
    package static let longestMaximumLength = 4096
    /// The characters that satisfy `requiresNonAlphanumeric`, as Firebase lists them (Identity Platform's password
    /// policy documentation); the JS SDK counts only these.
    package static let nonAlphanumericCharacters: [Character] = Array(#"^$*.[]{}()?"!@#%&/\,><':;|_~`"#)
    /// The policy Firebase's `schemaVersion` describes: the JS SDK refuses any other.
    package static let schemaVersion = 1

    package var enforcement: Enforcement
    /// With `enforce`, a password sign-in whose (right) password misses a requirement is refused too.
    package var forceUpgradeOnSignIn: Bool
    package var minimumLength: Int
    package var maximumLength: Int
    package var requiresUppercase: Bool
    package var requiresLowercase: Bool
    package var requiresNumeric: Bool
    package var requiresNonAlphanumeric: Bool

    package init(
        enforcement: Enforcement = .off, forceUpgradeOnSignIn: Bool = false, minimumLength: Int = PasswordHasher.minimumLength,
        maximumLength: Int = longestMaximumLength, requiresUppercase: Bool = false, requiresLowercase: Bool = false, requiresNumeric: Bool = false,
        requiresNonAlphanumeric: Bool = false
    ) {
        self.enforcement = enforcement
        self.forceUpgradeOnSignIn = forceUpgradeOnSignIn
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.requiresUppercase = requiresUppercase
        self.requiresLowercase = requiresLowercase
        self.requiresNumeric = requiresNumeric
        self.requiresNonAlphanumeric = requiresNonAlphanumeric
    }

    /// What `password` misses of the policy, in Firebase's words and order; empty when it meets every requirement.
    package func unmetRequirements(of password: String) -> [String] {
        let characters = password.unicodeScalars
        var unmet: [String] = []
        if password.count < minimumLength { unmet.append("Password must contain at least \(minimumLength) characters") }
        if password.count > maximumLength { unmet.append("Password may contain at most \(maximumLength) characters") }
        if requiresLowercase, !characters.contains(where: { ("a"..."z").contains($0) }) {
            unmet.append("Password must contain a lower case character")
        }
        if requiresUppercase, !characters.contains(where: { ("A"..."Z").contains($0) }) {
            unmet.append("Password must contain an upper case character")
        }
        if requiresNumeric, !characters.contains(where: { ("0"..."9").contains($0) }) { unmet.append("Password must contain a numeric character") }
        if requiresNonAlphanumeric, !password.contains(where: Self.nonAlphanumericCharacters.contains) {
            unmet.append("Password must contain a non-alphanumeric character")
        }
        return unmet
    }

    /// Refuses a password being set that misses a requirement of an enforced policy (`PASSWORD_DOES_NOT_MEET_REQUIREMENTS`).
    package func check(_ password: String) throws(SignInError) {
        guard enforcement == .enforce else { return }
        let unmet = unmetRequirements(of: password)
        guard unmet.isEmpty else { throw .passwordDoesNotMeetRequirements(unmet) }
    }

    /// The refusal of a right password signing in that misses a requirement of an enforced policy forcing an upgrade at
    /// sign-in, as Firebase refuses it: the account signs in again once its password is reset to one that complies.
    package func refusal(ofSignInWith password: String) -> SignInError? {
        guard enforcement == .enforce, forceUpgradeOnSignIn else { return nil }
        let unmet = unmetRequirements(of: password)
        return unmet.isEmpty ? nil : .passwordDoesNotMeetRequirements(unmet)
    }
}
