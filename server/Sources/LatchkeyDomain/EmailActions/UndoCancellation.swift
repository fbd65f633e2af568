import Foundation
import LatchkeyWire
import Logging

/// `accounts:cancelRecoverEmail`, a Latchkey extension Firebase does not have: the owner cancels every pending undo of
/// the account's address changes (`RECOVER_EMAIL`), so that whoever holds an old mailbox can no longer take the account
/// back with it.
///
/// Only the owner at full strength may: a recent sign-in (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`) whose session passed one of
/// the account's second factors, still enrolled. An account without a second factor cannot (`MFA_ENROLLMENT_NOT_FOUND`):
/// there, the mailbox and the session prove the same as each other, and the undo is the old address's only way back.
package struct UndoCancellation: Sendable {
    let store: any Store
    let authentication: Authentication
    let clock: any WallClock
    let recentLogin: TimeInterval

    package init(store: any Store, authentication: Authentication, clock: any WallClock, recentLogin: TimeInterval) {
        self.store = store
        self.authentication = authentication
        self.clock = clock
        self.recentLogin = recentLogin
    }

    /// Cancels the undos; returns the account and how many were cancelled.
    package func cancel(_ request: CancelRecoverEmailRequest, requester: RequesterSummary = RequesterSummary(), logger: Logger) async throws -> (
        account: Account, cancelled: Int
    ) {
        guard let idToken = request.idToken, !idToken.isEmpty else { throw SignInError.invalidIDToken }
        let claims = try await authentication.claims(of: idToken)
        let (now, recentLogin) = (clock.now, recentLogin)
        let verdict = try await store.write { transaction -> Verdict<(Account, Int)> in
            // Checked inside the write, so a revocation or a factor withdrawn concurrently still counts.
            let account = try await Authentication.account(of: claims, in: transaction, locking: true)
            let factors = try await transaction.secondFactors(accountID: account.id)
            guard !factors.isEmpty else { return .refused(.noSecondFactor) }
            guard let passed = claims.firebase.secondFactorIdentifier, factors.contains(where: { $0.id == passed }) else {
                return .refused(.secondFactorNotPassed)
            }
            guard claims.isRecentLogin(at: now, within: recentLogin) else { return .refused(.credentialTooOld) }
            let cancelled = try await transaction.cancelUndos(accountID: account.id, at: now)
            if cancelled > 0 {
                try await transaction.record(
                    AuditEvent(
                        .undosCancelled, at: now, accountID: account.id, email: account.email, requester: requester,
                        detail: cancelled == 1 ? "1 undo" : "\(cancelled) undos"))
            }
            return .accepted((account, cancelled))
        }
        let (account, cancelled) = try verdict.get()
        logger.debug("Undos cancelled", metadata: ["account": "\(account.id)", "count": "\(cancelled)"])
        return (account, cancelled)
    }
}
