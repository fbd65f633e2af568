import Foundation

extension IDTokenClaims {
    /// Whether the sign-in behind this token (`auth_time`) happened at most `window` before `now`: changing the
    /// password or the email, or deleting the account, asks for that and answers `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`
    /// otherwise.
    func isRecentLogin(at now: Date, within window: TimeInterval) -> Bool {
        now.timeIntervalSince1970 - TimeInterval(authTime) <= window
    }

    /// When the session behind this token signed in (`auth_time`).
    var authenticatedAt: Date { Date(timeIntervalSince1970: TimeInterval(authTime)) }

    /// What a sign-in made from this token's session (linking an address or a provider) owes the second factor: the
    /// session's own, carried over, when it passed one; otherwise it is asked for like any first factor's.
    var carriedSecondFactor: SignInFinisher.SecondFactorStep {
        firebase.secondFactorIdentifier.map { .carried($0) } ?? .askIfEnrolled
    }
}
