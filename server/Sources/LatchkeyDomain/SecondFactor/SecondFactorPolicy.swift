import Foundation

/// How second factors work on this server (`mfa` in the configuration).
package struct SecondFactorPolicy: Sendable, Equatable {
    /// Whether accounts may enroll factors and sign-ins ask for them. Turned off, enrolled accounts sign in with their
    /// first factor alone, as in Firebase.
    package var isEnabled: Bool
    /// Steps either side of now whose codes are accepted (`mfa.totp.adjacentIntervals`, 0 to 10).
    package var adjacentIntervals: Int
    package var maximumFactors: Int
    /// How long a passed first factor waits for its second (`mfaPendingCredential`).
    package var challengeLifetime: TimeInterval
    /// How long an enrollment waits for its first code (`finalizeEnrollmentTime`).
    package var enrollmentLifetime: TimeInterval

    package init(
        isEnabled: Bool = false, adjacentIntervals: Int = 5, maximumFactors: Int = 5, challengeLifetime: TimeInterval = 600,
        enrollmentLifetime: TimeInterval = 600
    ) {
        self.isEnabled = isEnabled
        self.adjacentIntervals = adjacentIntervals
        self.maximumFactors = maximumFactors
        self.challengeLifetime = challengeLifetime
        self.enrollmentLifetime = enrollmentLifetime
    }

    /// Refuses while second factors are off: enrolling and answering a challenge both start here.
    func requireEnabled() throws(SignInError) {
        guard isEnabled else { throw .secondFactorsDisabled }
    }

    /// Whether a session signed in with `provider` may enroll a factor: Firebase offers second factors to neither
    /// anonymous, custom-token, phone nor Game Center sign-ins.
    static func supports(firstFactor provider: SignInProvider) -> Bool {
        ![SignInProvider.anonymous.id, SignInProvider.custom.id, "phone", "gc.apple.com"].contains(provider.id)
    }

    /// Whether a sign-in with `provider` to an account with factors stops at them. Unlike Firebase, a custom token does:
    /// it proves only what the backend that minted it checked, and the factors were enrolled to guard the account
    /// whatever the first factor.
    static func challenges(firstFactor provider: SignInProvider) -> Bool {
        provider == .custom || supports(firstFactor: provider)
    }
}
