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
    let texting: PhoneTexting

    package init(
        store: any Store, secret: ServerSecret, clock: any WallClock, finisher: SignInFinisher, policy: SecondFactorPolicy, limiter: RateLimiter,
        notices: SecurityNotices, texting: PhoneTexting
    ) {
        self.texting = texting
        self.notices = notices
        self.store = store
        self.secret = secret
        self.clock = clock
        self.finisher = finisher
        self.policy = policy
        self.limiter = limiter
    }

    /// `mfaSignIn:start`, which only phone factors use (a TOTP factor's code is simply sent to `finalize`): texts a code
    /// to the factor's phone, as `PhoneTexting` texts every code but outside the day's budget, which never locks an
    /// enrolled account out; returns its `sessionInfo`.
    package func start(_ request: StartMfaSignInRequest, language: LanguageTag, by caller: Caller) async throws -> String {
        guard let credential = request.mfaPendingCredential, !credential.isEmpty else { throw SignInError.missingMFAPendingCredential }
        guard let factorID = request.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.missingMFAEnrollmentID }
        let challenge = try await liveChallenge(secret.hash(credential, for: .secondFactorChallenge), at: clock.now)
        let factors = try await store.read { try await $0.secondFactors(accountID: challenge.accountID) }
        guard let factor = factors.first(where: { $0.id == factorID }) else { throw SignInError.mfaEnrollmentNotFound }
        guard let number = factor.phoneNumber else { throw SignInError.unsupportedSecondFactor("MFA provider not supported!") }
        try policy.requireEnabled()
        return try await texting.send(
            .challenge, to: number, proof: request.phoneSignInInfo ?? SendVerificationCodeRequest(phoneNumber: nil), by: caller, budgeted: false,
            language: language, accountID: challenge.accountID, factorID: factor.id)
    }

    /// The challenge of `credentialHash` if it can still be answered at `now`, else `INVALID_MFA_PENDING_CREDENTIAL`.
    private func liveChallenge(_ credentialHash: Data, at now: Date) async throws -> SecondFactorChallenge {
        guard let challenge = try await store.read({ try await $0.secondFactorChallenge(credentialHash: credentialHash) }), challenge.isLive(at: now)
        else { throw SignInError.invalidMFAPendingCredential }
        return challenge
    }

    /// `mfaSignIn:finalize`: signs in with a code from one of the account's factors: an authenticator's (with its
    /// `mfaEnrollmentId`) or the one `start` texted (with its `sessionInfo`). The session keeps the first factor's
    /// provider and names the second. A missing factor id or code is refused after the credential, so an app with a dead
    /// credential starts over. The challenge's last wrong code tells the owner by email (in `language`): someone got
    /// past the first factor.
    package func finalize(_ request: FinalizeMfaSignInRequest, language: LanguageTag = .english, by caller: Caller, logger: Logger) async throws
        -> Session
    {
        guard let pendingCredential = request.mfaPendingCredential, !pendingCredential.isEmpty else { throw SignInError.missingCredential }
        let phone = request.totpVerificationInfo == nil ? request.phoneVerificationInfo : nil
        guard request.totpVerificationInfo != nil || phone != nil else { throw SignInError.unsupportedSecondFactor("MFA provider not supported!") }
        try policy.requireEnabled()
        let credentialHash = secret.hash(pendingCredential, for: .secondFactorChallenge)
        let now = clock.now
        let challenge = try await liveChallenge(credentialHash, at: now)
        let proof: Proof
        if let phone {
            guard let sessionInfo = phone.sessionInfo, !sessionInfo.isEmpty else { throw SignInError.missingSessionInfo }
            guard let code = phone.code, !code.isEmpty else { throw SignInError.missingCode }
            proof = .texted(sessionInfo: sessionInfo, code: code)
        } else {
            guard let factorID = request.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.missingMFAEnrollmentID }
            guard let code = request.totpVerificationInfo?.verificationCode, !code.isEmpty else { throw SignInError.missingCode }
            proof = .authenticator(factorID: factorID, code: code)
        }
        // Every code tried counts, per account and in the transaction that tries it, so no burst of concurrent guesses
        // outruns the count; a right one is taken back. The window counts an account's codes, whoever sends them.
        let attempts = [RateLimiter.Check(.secondFactorPerAccount, challenge.accountID)]
        let (secret, policy, finisher, notices, limiter, requester, codes) = (secret, policy, finisher, notices, limiter, caller.requester, texting.codes)
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
                let factors = try await transaction.secondFactors(accountID: account.id)
                let passed = try await proof.factor(of: factors, account: account, secret: secret, codes: codes, policy: policy, at: now, in: transaction)
                guard case .accepted(let factor) = passed else {
                    if passed.refusal == .invalidCode {
                        try await transaction.record(
                            AuditEvent(.secondFactorRefused, at: now, accountID: account.id, email: account.email, requester: requester))
                        if challenge.attempts == SecondFactorChallenge.maximumAttempts {
                            try await notices.queue(
                                SecurityNotice(.codesRefused, language: language, at: now, requester: requester), to: account, at: now,
                                in: transaction)
                        }
                    }
                    return .refused(passed.refusal ?? .invalidCode)
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

    /// The code a finalize request brings.
    private enum Proof: Sendable {
        case authenticator(factorID: String, code: String)
        case texted(sessionInfo: String, code: String)

        /// The factor of `factors` this proof passes, in the challenge's transaction: an authenticator's code spends its
        /// time step; a texted code is spent, and must have been texted for this account's challenge. A wrong code is
        /// `INVALID_CODE`.
        func factor(
            of factors: [SecondFactor], account: Account, secret: ServerSecret, codes: PhoneCodes, policy: SecondFactorPolicy, at now: Date,
            in transaction: any StoreTransaction
        ) async throws -> Verdict<SecondFactor> {
            switch self {
            case .authenticator(let factorID, let code):
                guard let factor = factors.first(where: { $0.id == factorID }) else { return .refused(.mfaEnrollmentNotFound) }
                guard case .totp(let sealed, _) = factor.method else { return .refused(.mfaEnrollmentNotFound) }
                let shared = try secret.open(sealed, for: .secondFactorSecret)
                guard let step = TOTP.matchingStep(of: code, secret: shared, at: now, window: policy.adjacentIntervals),
                    try await transaction.useSecondFactorStep(step, factorID: factor.id, accountID: account.id)
                else { return .refused(.invalidCode) }
                return .accepted(factor)
            case .texted(let sessionInfo, let code):
                let redeemed = try await codes.redeem(sessionInfo: sessionInfo, code: code, for: .challenge, at: now, in: transaction)
                if let refusal = redeemed.refusal { return .refused(refusal) }
                let verification = try redeemed.get()
                guard verification.accountID == account.id, let factor = factors.first(where: { $0.id == verification.factorID }),
                    factor.phoneNumber == verification.phoneNumber
                else { return .refused(.invalidSessionInfo) }
                return .accepted(factor)
            }
        }
    }
}
