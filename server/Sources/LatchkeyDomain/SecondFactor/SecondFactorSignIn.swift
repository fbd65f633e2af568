import Foundation
import LatchkeyWire
import Logging

/// Finishes a sign-in stopped at the second factor (`mfaSignIn:finalize`): a code from one of the account's authenticator
/// apps, against the challenge the first factor left (`SignInFinisher`).
///
/// Guessing is cut off twice: a challenge takes at most `SecondFactorChallenge.maximumAttempts` codes, and wrong codes
/// count per account across challenges (`rateLimits.secondFactorPerAccount`), so a stolen password cannot be turned into a
/// brute force of the code by signing in again and again. A code's time step is spent once accepted. The wrong code
/// that ends a challenge emails the owner: whoever sent it got past the first factor. The right code finishes the
/// sign-in in `SignInFinisher`, which applies what it keeps (`PendingSignIn`) and refuses a disabled account.
package struct SecondFactorSignIn: Sendable {
    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    let finisher: SignInFinisher
    let policy: SecondFactorPolicy
    let limiter: RateLimiter
    let notices: SecurityNotices

    package init(
        store: any Store, secret: ServerSecret, clock: any WallClock, finisher: SignInFinisher, policy: SecondFactorPolicy, limiter: RateLimiter,
        notices: SecurityNotices
    ) {
        self.notices = notices
        self.store = store
        self.secret = secret
        self.clock = clock
        self.finisher = finisher
        self.policy = policy
        self.limiter = limiter
    }

    /// `mfaSignIn:start`, which only SMS factors use (a TOTP factor's code is simply sent to `finalize`): every answer
    /// is a refusal, the one Firebase gives.
    package func start(_ request: StartMfaSignInRequest) async throws -> Never {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else { throw SignInError.missingMFAPendingCredential }
        guard let factorID = request.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.missingMFAEnrollmentID }
        let challenge = try await liveChallenge(secret.hash(credential, for: .secondFactorChallenge), at: clock.now)
        let factors = try await store.read { try await $0.secondFactors(accountID: challenge.accountID) }
        guard factors.contains(where: { $0.id == factorID }) else { throw SignInError.mfaEnrollmentNotFound }
        throw SignInError.unsupportedSecondFactor("MFA provider not supported!")
    }

    /// The challenge of `credentialHash` if it can still be answered at `now`, else `INVALID_MFA_PENDING_CREDENTIAL`.
    private func liveChallenge(_ credentialHash: Data, at now: Date) async throws -> SecondFactorChallenge {
        guard let challenge = try await store.read({ try await $0.secondFactorChallenge(credentialHash: credentialHash) }), challenge.isLive(at: now)
        else { throw SignInError.invalidMFAPendingCredential }
        return challenge
    }

    /// `mfaSignIn:finalize`: signs in with a code from one of the account's factors. The session keeps the first factor's
    /// provider and names the second. A missing factor id or code is refused after the credential, so an app with a
    /// dead credential starts over. The challenge's last wrong code tells the owner by email (in `language`): someone
    /// got past the first factor.
    package func finalize(_ request: FinalizeMfaSignInRequest, language: LanguageTag = .english, by caller: Caller, logger: Logger) async throws
        -> Session
    {
        guard let pendingCredential = request.mfaPendingCredential, !pendingCredential.isEmpty else { throw SignInError.missingCredential }
        guard let verification = request.totpVerificationInfo else {
            throw request.phoneVerificationInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("MFA provider not supported!")
        }
        let (factorID, code) = (request.mfaEnrollmentId, verification.verificationCode)
        try policy.requireEnabled()
        let credentialHash = secret.hash(pendingCredential, for: .secondFactorChallenge)
        let now = clock.now
        let challenge = try await liveChallenge(credentialHash, at: now)
        guard let factorID, !factorID.isEmpty else { throw SignInError.missingMFAEnrollmentID }
        guard let code, !code.isEmpty else { throw SignInError.missingCode }
        // Every code tried counts, per account and in the transaction that tries it, so no burst of concurrent guesses
        // outruns the count; a right one is taken back. The window counts an account's codes, whoever sends them.
        let attempts = [RateLimiter.Check(.secondFactorPerAccount, challenge.accountID)]
        let (secret, policy, finisher, notices, limiter, requester) = (secret, policy, finisher, notices, limiter, caller.requester)
        let verdict: Verdict<SignInFinisher.Finished>
        do {
            verdict = try await limiter.write(counting: attempts, requester: requester) { transaction -> Verdict<SignInFinisher.Finished> in
                // The account is held first, as every write that changes it holds it before its other rows (a revocation
                // deletes its challenges), so the two cannot wait on each other. The attempt is claimed before the code is
                // looked at: a challenge answers at most its number of codes.
                guard let account = try await transaction.lockedAccount(id: challenge.accountID),
                    let challenge = try await transaction.claimSecondFactorAttempt(credentialHash: credentialHash, at: now),
                    challenge.accountID == account.id, let pending = challenge.pending
                else { return .refused(.invalidMFAPendingCredential) }
                guard let factor = try await transaction.secondFactors(accountID: account.id).first(where: { $0.id == factorID }) else {
                    return .refused(.mfaEnrollmentNotFound)
                }
                guard case .totp(let sealed, _) = factor.method else { return .refused(.mfaEnrollmentNotFound) }
                let shared = try secret.open(sealed, for: .secondFactorSecret)
                guard let step = TOTP.matchingStep(of: code, secret: shared, at: now, window: policy.adjacentIntervals),
                    try await transaction.useSecondFactorStep(step, factorID: factor.id, accountID: account.id)
                else {
                    try await transaction.record(
                        AuditEvent(.secondFactorRefused, at: now, accountID: account.id, email: account.email, requester: requester))
                    if challenge.attempts == SecondFactorChallenge.maximumAttempts {
                        try await notices.queue(
                            SecurityNotice(.codesRefused, language: language, at: now, requester: requester), to: account, at: now, in: transaction)
                    }
                    return .refused(.invalidCode)
                }
                guard try await transaction.deleteSecondFactorChallenge(credentialHash: credentialHash) else { return .refused(.invalidMFAPendingCredential) }
                try await limiter.uncount(attempts, in: transaction)
                // The sign-in the first factor began ends now, with what it changes in the account.
                var attempt = SignInFinisher.Attempt(
                    account: pending.applied(to: account), stored: account, provider: challenge.signInProvider, identity: pending.identity,
                    requester: requester, auditDetail: "second factor")
                attempt.replacesProviderIdentities = pending.replacesProviderIdentities
                attempt.developerClaims = pending.developerClaims
                attempt.secondFactor = .carried(factor.passed)
                return try await finisher.finish(attempt, at: now, in: transaction)
            }
        } catch let conflict as AccountConflict {
            // The identity this sign-in links was linked to another account meanwhile.
            throw conflict.refusal
        }
        if verdict.refusal == .invalidCode { notices.nudge() }
        let finished = try verdict.get()
        logger.debug("Second factor passed", metadata: ["account": "\(finished.user.account.id)"])
        return try finisher.session(for: finished)
    }
}
