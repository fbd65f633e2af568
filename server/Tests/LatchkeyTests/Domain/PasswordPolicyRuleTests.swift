import LatchkeyDomain
import Testing

/// `PasswordPolicy`, the one rule a new password is held to: what it misses, in Firebase's words and order, counted as
/// the JS SDK's `validatePassword` counts.
@Suite struct PasswordPolicyRuleTests {
    static let everything = PasswordPolicy(
        enforcement: .enforce, minimumLength: 8, maximumLength: 12, requiresUppercase: true, requiresLowercase: true, requiresNumeric: true,
        requiresNonAlphanumeric: true)

    @Test(arguments: [
        ("Aa1!aaaa", [String]()),
        ("", ["at least 8 characters", "a lower case character", "an upper case character", "a numeric character", "a non-alphanumeric character"]),
        ("AAAA1111!", ["a lower case character"]),
        ("aaaa1111!", ["an upper case character"]),
        ("Aaaaaaaa!", ["a numeric character"]),
        ("Aaaa1111-+=", ["a non-alphanumeric character"]),  // not in Firebase's list
        ("Aa1!aaaaaaaaa", ["at most 12 characters"]),
        ("ÀÉ1!ééééé", ["a lower case character", "an upper case character"]),  // ASCII letters only, as the JS SDK
    ])
    func whatAPasswordMisses(_ password: String, _ missing: [String]) {
        let expected = missing.map { $0.hasPrefix("at most") ? "Password may contain \($0)" : "Password must contain \($0)" }
        #expect(Self.everything.unmetRequirements(of: password) == expected)
    }

    @Test func onlyAnEnforcedPolicyRefuses() throws {
        var policy = Self.everything
        #expect(throws: SignInError.passwordDoesNotMeetRequirements(["Password must contain a lower case character"])) {
            try policy.check("AAAA1111!")
        }
        #expect(policy.refusal(ofSignInWith: "AAAA1111!") == nil)  // no upgrade forced at sign-in
        policy.forceUpgradeOnSignIn = true
        #expect(policy.refusal(ofSignInWith: "AAAA1111!") == .passwordDoesNotMeetRequirements(["Password must contain a lower case character"]))
        #expect(policy.refusal(ofSignInWith: "Aa1!aaaa") == nil)
        policy.enforcement = .off
        try policy.check("a")
        #expect(policy.refusal(ofSignInWith: "a") == nil)
        let unmet = ["Password must contain a numeric character", "Password must contain an upper case character"]
        #expect(SignInError.passwordDoesNotMeetRequirements(unmet).code == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
        let detail = SignInError.passwordDoesNotMeetRequirements(unmet).detail
        #expect(detail == "Missing password requirements: [Password must contain a numeric character, Password must contain an upper case character]")
    }

    /// The rules every password keeps hold under a policy too; an enforced policy answers first, as Firebase does.
    @Test func theBaseRulesStillHold() throws {
        let lenient = PasswordPolicy(enforcement: .enforce)
        #expect(throws: SignInError.missingPassword) { try PasswordHasher.validate("", policy: lenient) }
        #expect(throws: SignInError.passwordHasControlCharacters) { try PasswordHasher.validate("abc\ndefg", policy: lenient) }
        #expect(throws: SignInError.passwordDoesNotMeetRequirements(["Password must contain at least 6 characters"])) {
            try PasswordHasher.validate("abc", policy: lenient)
        }
        #expect(throws: SignInError.weakPassword) { try PasswordHasher.validate("abc", policy: PasswordPolicy()) }
        #expect(try PasswordHasher.validate("abcdef", policy: lenient) == "abcdef")
    }
}
