import Foundation

extension IDTokenClaims {
    /// Whether the sign-in behind this token (`auth_time`) happened at most `window` before `now`: changing the
    /// password or the email, or deleting the account, asks for that and answers `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`
    /// otherwise.
    func isRecentLogin(at now: Date, within window: TimeInterval) -> Bool {
        now.timeIntervalSince1970 - TimeInterval(authTime) <= window
    }

    /// Whether this token's session may add or change a way to sign in to `user` (a password, a provider, an address):
    /// only a recent sign-in may, so that an older ID token, perhaps stolen, cannot give its holder a way in that outlives
    /// it. Firebase asks no recent sign-in for linking; Latchkey does. An anonymous account, which has nothing to sign in
    /// again with, always may: upgrading it must work at any age.
    func mayChangeSignIn(of user: UserRecord, at now: Date, within window: TimeInterval) -> Bool {
        user.isAnonymous || isRecentLogin(at: now, within: window)
    }

    /// When the session behind this token signed in (`auth_time`).
    var authenticatedAt: Date { Date(timeIntervalSince1970: TimeInterval(authTime)) }

    /// What a sign-in made from this token's session (linking an address or a provider) owes the second factor: the
    /// session's own, carried over, when it passed one; otherwise it is asked for like any first factor's.
    var carriedSecondFactor: SignInFinisher.SecondFactorStep {
        passedSecondFactor.map { .carried($0) } ?? .askIfEnrolled
    }

    /// The second factor this token's session passed: its identifier and kind, read as a session row's are.
    var passedSecondFactor: PassedSecondFactor? {
        PassedSecondFactor(stored: firebase.secondFactorIdentifier, kind: firebase.signInSecondFactor)
    }
}
