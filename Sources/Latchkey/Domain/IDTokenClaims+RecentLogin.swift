import Foundation

extension IDTokenClaims {
    /// Whether the sign-in behind this token (`auth_time`) happened at most `window` before `now`: changing the
    /// password or the email, or deleting the account, asks for that and answers `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`
    /// otherwise.
    func isRecentLogin(at now: Date, within window: TimeInterval) -> Bool {
        now.timeIntervalSince1970 - TimeInterval(authTime) <= window
    }
}
