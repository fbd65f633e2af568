import Foundation
import LatchkeyWire
import Logging

/// Turning an authenticator app on and off: `mfaEnrollment:start`, `:finalize` and `:withdraw`.
///
/// Enrolling needs a session signed in with a first factor second factors build on, a verified address and (to start)
/// a recent sign-in. Refusals come in Latchkey's order (spec §8.3 [L]): second factors off, then the ID token, then a
/// request missing what it needs, then the account's eligibility. Finishing it ends every other session of the account, since one of them may be an intruder's,
/// and tells the owner by email; so does removing a factor.
package struct SecondFactorEnrollments: Sendable {
    /// An enrollment waiting for its first code: what the app shows (as a QR code) and sends back.
    package struct Started: Sendable {
        /// The shared secret in base32, handed out this once.
        package let sharedSecretKey: String
        package let sessionInfo: String
        package let finalizeBy: Date
    }

    let store: any Store
    let authentication: Authentication
    let secret: ServerSecret
    let clock: any WallClock
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let policy: SecondFactorPolicy
    let recentLogin: TimeInterval

    package init(
        store: any Store, authentication: Authentication, secret: ServerSecret, clock: any WallClock, finisher: SignInFinisher, notices: SecurityNotices,
        policy: SecondFactorPolicy, recentLogin: TimeInterval
    ) {
        self.store = store
        self.authentication = authentication
        self.secret = secret
        self.clock = clock
        self.finisher = finisher
        self.notices = notices
        self.policy = policy
        self.recentLogin = recentLogin
    }

    /// `mfaEnrollment:start`: draws a new shared secret and keeps it, sealed, until the first code or
    /// `mfa.totp.enrollmentTtlSeconds`.
    package func start(_ request: StartMfaEnrollmentRequest) async throws -> Started {
        try policy.requireEnabled()
        let claims = try await signedIn(request.idToken)
        guard request.totpEnrollmentInfo != nil else {
            throw request.phoneEnrollmentInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("((Missing totpEnrollmentInfo.))")
        }
        let now = clock.now
        let shared = ServerSecret.randomBytes(TOTP.secretLength)
        let sealed = try secret.seal(Array(shared), for: .secondFactorSecret)
        let sessionInfo = ServerSecret.makeToken()
        let expiresAt = now.addingTimeInterval(policy.enrollmentLifetime)
        let (secret, policy, recentLogin) = (secret, policy, recentLogin)
        try await store.write { transaction in
            let (account, factors) = try await Self.eligible(claims, in: transaction)
            guard claims.isRecentLogin(at: now, within: recentLogin) else { throw SignInError.credentialTooOld }
            guard factors.count < policy.maximumFactors else { throw SignInError.secondFactorLimitExceeded }
            try await transaction.insert(
                PendingEnrollment(
                    sessionHash: secret.hash(sessionInfo, for: .enrollmentSession), accountID: account.id, sealedSecret: sealed, expiresAt: expiresAt))
        }
        return Started(sharedSecretKey: shared.base32Encoded(), sessionInfo: sessionInfo, finalizeBy: expiresAt)
    }

    /// `mfaEnrollment:finalize`: enrolls the factor whose first code the request carries, and signs the user in again
    /// with it: the new session is the only one left. A wrong code leaves the enrollment waiting.
    package func finalize(
        _ request: FinalizeMfaEnrollmentRequest, language: LanguageTag, requester: RequesterSummary, logger: Logger
    ) async throws -> Session {
        try policy.requireEnabled()
        let claims = try await signedIn(request.idToken)
        guard let verification = request.totpVerificationInfo else {
            throw request.phoneVerificationInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("MFA provider not supported!")
        }
        guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else { throw SignInError.missingSessionInfo }
        // A code's form is checked with its value, so a malformed code is simply a wrong one.
        guard let code = verification.verificationCode, !code.isEmpty else { throw SignInError.missingCode }
        let displayName = try ProfileText.checked(request.displayName.flatMap { $0.isEmpty ? nil : $0 })
        let now = clock.now
        let sessionHash = secret.hash(sessionInfo, for: .enrollmentSession)
        let factorID = Account.makeID()
        let (secret, policy, finisher, notices, recentLogin) = (secret, policy, finisher, notices, recentLogin)
        let verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
            let (account, _) = try await Self.eligible(claims, in: transaction)
            guard let pending = try await transaction.pendingEnrollment(sessionHash: sessionHash), pending.accountID == account.id else {
                return .refused(.invalidSessionInfo)
            }
            guard now < pending.expiresAt else { return .refused(.sessionExpired) }
            // As at the start: a token gone stale since then (or stolen then) enrolls nothing.
            guard claims.isRecentLogin(at: now, within: recentLogin) else { return .refused(.credentialTooOld) }
            let shared = try secret.open(pending.sealedSecret, for: .secondFactorSecret)
            guard let step = TOTP.matchingStep(of: code, secret: shared, at: now, window: policy.adjacentIntervals) else { return .refused(.invalidCode) }
            // Every other session ends. Raising `validSince` first also holds the account's row, so two enrollments at
            // once count each other's factor; past the limit, the thrown refusal undoes the raise.
            try await transaction.raiseValidSince(accountID: account.id, to: now.wholeSeconds)
            guard try await transaction.secondFactors(accountID: account.id).count < policy.maximumFactors else {
                throw SignInError.secondFactorLimitExceeded
            }
            guard try await transaction.deletePendingEnrollment(sessionHash: sessionHash) else { throw SignInError.invalidSessionInfo }
            try await transaction.insert(
                SecondFactor(
                    id: factorID, accountID: account.id, displayName: displayName, enrolledAt: now,
                    method: .totp(sealedSecret: pending.sealedSecret, lastUsedStep: step)))
            try await transaction.revokeSessions(accountID: account.id, at: now)
            for kind in [AuditEvent.Kind.secondFactorAdded, .sessionsRevoked] {
                try await transaction.record(
                    AuditEvent(kind, at: now, accountID: account.id, email: account.email, requester: requester, detail: "authenticator enrolled"))
            }
            try await notices.queue(
                SecurityNotice(.factorAdded, factorName: displayName, language: language, at: now, requester: requester), to: account, at: now,
                in: transaction)
            return .accepted(try await Self.reopen(
                claims, account, secondFactor: PassedSecondFactor(id: factorID, kind: .totp), finisher: finisher, at: now, in: transaction))
        }
        return try signedInAgain(verdict, logger: logger, "Second factor enrolled")
    }

    /// `mfaEnrollment:withdraw`: removes one factor after a recent sign-in. The user gets new tokens without
    /// second-factor claims; other sessions stay, as in Firebase.
    package func withdraw(_ request: WithdrawMfaRequest, language: LanguageTag, requester: RequesterSummary, logger: Logger) async throws -> Session {
        let claims = try await signedIn(request.idToken)
        guard let factorID = request.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.mfaEnrollmentNotFound }
        let now = clock.now
        let (recentLogin, finisher, notices) = (recentLogin, finisher, notices)
        let verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
            let account = try await Authentication.account(of: claims, in: transaction, locking: true)
            guard let factor = try await transaction.secondFactors(accountID: account.id).first(where: { $0.id == factorID }) else {
                return .refused(.mfaEnrollmentNotFound)
            }
            guard claims.isRecentLogin(at: now, within: recentLogin) else { return .refused(.credentialTooOld) }
            guard try await transaction.deleteSecondFactor(id: factor.id, accountID: account.id) else { return .refused(.mfaEnrollmentNotFound) }
            try await transaction.record(
                AuditEvent(.secondFactorRemoved, at: now, accountID: account.id, email: account.email, requester: requester, detail: "by the user"))
            try await notices.queue(
                SecurityNotice(.factorRemoved, factorName: factor.displayName, language: language, at: now, requester: requester), to: account,
                at: now, in: transaction)
            return .accepted(try await Self.reopen(claims, account, secondFactor: nil, finisher: finisher, at: now, in: transaction))
        }
        return try signedInAgain(verdict, logger: logger, "Second factor withdrawn")
    }

    /// A new session for the user of `claims`, in the change's transaction: the presented token's provider and
    /// `auth_time`, with `secondFactor` or none.
    private static func reopen(
        _ claims: IDTokenClaims, _ account: Account, secondFactor: PassedSecondFactor?, finisher: SignInFinisher, at now: Date, in transaction: any StoreTransaction
    ) async throws -> SignInFinisher.Finished {
        try await finisher.reopen(
            account, provider: SignInProvider(id: claims.firebase.signInProvider), secondFactor: secondFactor, authTime: claims.authenticatedAt,
            at: now, in: transaction)
    }

    /// After the commit: wakes the outbox for the notice the change queued, and signs the new session's tokens.
    private func signedInAgain(_ verdict: Verdict<SignInFinisher.Finished>, logger: Logger, _ event: Logger.Message) throws -> Session {
        let finished = try verdict.get()
        notices.nudge()
        logger.debug(event, metadata: ["account": "\(finished.user.account.id)"])
        return try finisher.session(for: finished)
    }

    /// The verified claims of the request's `idToken`, which it must have.
    private func signedIn(_ idToken: String?) async throws -> IDTokenClaims {
        guard let idToken, !idToken.isEmpty else { throw SignInError.missingIDToken }
        return try await authentication.claims(of: idToken)
    }

    /// The account behind `claims` and its factors, if it may enroll one: its session signed in with a first factor second
    /// factors build on, and its address is verified. Refusals are thrown: nothing is written before this check.
    private static func eligible(_ claims: IDTokenClaims, in transaction: any StoreTransaction) async throws -> (Account, [SecondFactor]) {
        let account = try await Authentication.account(of: claims, in: transaction, locking: true)
        guard SecondFactorPolicy.supports(firstFactor: SignInProvider(id: claims.firebase.signInProvider)) else { throw SignInError.unsupportedFirstFactor }
        guard account.email != nil, account.isEmailVerified else { throw SignInError.unverifiedEmail }
        return (account, try await transaction.secondFactors(accountID: account.id))
    }
}
