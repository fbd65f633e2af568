import Foundation
import LatchkeyDomain

/// Second factors (TOTP authenticator apps), as Firebase's project config `mfa` part describes them.
///
/// - `mfa.state` (`"DISABLED"`, the default, or `"ENABLED"`): whether accounts may enroll an authenticator app and
///   sign-ins of enrolled accounts ask for its code. Turned off again, enrolled accounts sign in with one factor.
/// - `mfa.maxFactors` (integer, default `5`, 1 to 5): authenticators one account may enroll.
/// - `mfa.pendingCredentialTtlSeconds` (integer, default `600`, 60 to 3600): how long a passed first factor waits for
///   its code (`mfaPendingCredential`).
/// - `mfa.totp.adjacentIntervals` (integer, default `5`, 0 to 10): 30-second steps either side of now whose codes
///   are accepted, for clocks that drift.
/// - `mfa.totp.enrollmentTtlSeconds` (integer, default `600`, 60 to 3600): how long an enrollment waits for its
///   first code (`finalizeEnrollmentTime`).
package struct SecondFactorConfiguration: Sendable {
    /// Firebase's `MultiFactorAuthConfig.state`, as the file and the admin API spell it.
    package enum State: String, Sendable, CaseIterable {
        case disabled = "DISABLED"
        case enabled = "ENABLED"
    }

    package var policy: SecondFactorPolicy

    init(_ read: inout ConfigSectionReader) {
        let defaults = SecondFactorPolicy()
        policy = SecondFactorPolicy(
            isEnabled: read.choice("mfa.state", default: State.disabled) == .enabled,
            adjacentIntervals: read.int("mfa.totp.adjacentIntervals", default: defaults.adjacentIntervals, in: 0...10),
            maximumFactors: read.int("mfa.maxFactors", default: defaults.maximumFactors, in: 1...5),
            challengeLifetime: TimeInterval(read.int("mfa.pendingCredentialTtlSeconds", default: Int(defaults.challengeLifetime), in: 60...3600)),
            enrollmentLifetime: TimeInterval(read.int("mfa.totp.enrollmentTtlSeconds", default: Int(defaults.enrollmentLifetime), in: 60...3600)))
    }
}
