import Foundation
import LatchkeyWire
import Logging

/// Turning second factors on and off: `mfaEnrollment:start`, `:finalize` and `:withdraw`, for an authenticator app
/// (TOTP) or a phone (a code texted to it, as `PhoneTexting` texts every code).
///
/// Enrolling needs a session signed in with a first factor second factors build on, a verified address and (to start)
/// a recent sign-in. Refusals come in Latchkey's order (spec §8.3 [L]): second factors off, then the ID token, then a
/// request missing what it needs, then the account's eligibility. Finishing it ends every other session of the account, since one of them may be an intruder's,
/// and tells the owner by email; so does removing a factor.
package struct SecondFactorEnrollments: Sendable {
    /// An enrollment waiting for its first code.
    package enum Started: Sendable {
        /// What the app shows (as a QR code) and sends back: the shared secret in base32, handed out this once.
        case authenticator(sharedSecretKey: String, sessionInfo: String, finalizeBy: Date)
        /// A code texted to the phone, sent back with its `sessionInfo`.
        case phone(sessionInfo: String)
    }

    let store: any Store
    let authentication: Authentication
    let secret: ServerSecret
    let clock: any WallClock
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let policy: SecondFactorPolicy
    let recentLogin: TimeInterval
    let texting: PhoneTexting

    package init(
        store: any Store, authentication: Authentication, secret: ServerSecret, clock: any WallClock, finisher: SignInFinisher, notices: SecurityNotices,
        policy: SecondFactorPolicy, recentLogin: TimeInterval, texting: PhoneTexting
    ) {
        self.texting = texting
        self.store = store
        self.authentication = authentication
        self.secret = secret
        self.clock = clock
        self.finisher = finisher
        self.notices = notices
        self.policy = policy
        self.recentLogin = recentLogin
    }

    /// `mfaEnrollment:start`: for an authenticator app, draws a new shared secret and keeps it, sealed, until the first
    /// code or `mfa.totp.enrollmentTtlSeconds`; for a phone, texts it a code (`phoneEnrollmentInfo`), unless the account
    /// has that number as a factor already.
    package func start(_ request: StartMfaEnrollmentRequest, language: LanguageTag, by caller: Caller) async throws -> Started {
        try policy.requireEnabled()
        let claims = try await signedIn(request.idToken)
        if let info = request.phoneEnrollmentInfo, request.totpEnrollmentInfo == nil {
            let number = try PhoneNumber(requestField: info.phoneNumber)
            let (now, policy, recentLogin) = (clock.now, policy, recentLogin)
            let sessionInfo = try await texting.send(.enrollment, to: number, proof: info, by: caller, language: language, accountID: claims.userID) {
                let (_, factors) = try await Self.eligible(claims, in: $0)
                guard claims.isRecentLogin(at: now, within: recentLogin) else { throw SignInError.credentialTooOld }
                guard !factors.contains(where: { $0.phoneNumber == number }) else { throw SignInError.secondFactorExists }
                guard factors.count < policy.maximumFactors else { throw SignInError.secondFactorLimitExceeded }
            }
            return .phone(sessionInfo: sessionInfo)
        }
        guard request.totpEnrollmentInfo != nil else { throw SignInError.unsupportedSecondFactor("((Missing totpEnrollmentInfo.))") }
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
        return .authenticator(sharedSecretKey: shared.base32Encoded(), sessionInfo: sessionInfo, finalizeBy: expiresAt)
    }

    /// `mfaEnrollment:finalize`: enrolls the factor whose first code the request carries (the authenticator's, or the
    /// one texted to the phone), and signs the user in again with it: the new session is the only one left. A wrong
    /// authenticator code leaves the enrollment waiting; a wrong texted code counts against its `sessionInfo`.
    package func finalize(
        _ request: FinalizeMfaEnrollmentRequest, language: LanguageTag, requester: RequesterSummary, logger: Logger
    ) async throws -> Session {
        try policy.requireEnabled()
        let claims = try await signedIn(request.idToken)
        let proof = try Proof(request)
        let displayName = try ProfileText.checked(request.displayName.flatMap { $0.isEmpty ? nil : $0 })
        let now = clock.now
        let factorID = Account.makeID()
        let (secret, policy, recentLogin, codes) = (secret, policy, recentLogin, texting.codes)
        let enroll = { @Sendable (account: Account, method: SecondFactor.Method, transaction: any StoreTransaction) in
            try await self.enroll(
                SecondFactor(id: factorID, accountID: account.id, displayName: displayName, enrolledAt: now, method: method), of: account,
                claims: claims, language: language, requester: requester, at: now, in: transaction)
        }
        let verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
            let (account, factors) = try await Self.eligible(claims, in: transaction)
            switch proof {
            case .authenticator(let sessionInfo, let code):
                let sessionHash = secret.hash(sessionInfo, for: .enrollmentSession)
                guard let pending = try await transaction.pendingEnrollment(sessionHash: sessionHash), pending.accountID == account.id else {
                    return .refused(.invalidSessionInfo)
                }
                guard now < pending.expiresAt else { return .refused(.sessionExpired) }
                // As at the start: a token gone stale since then (or stolen then) enrolls nothing.
                guard claims.isRecentLogin(at: now, within: recentLogin) else { return .refused(.credentialTooOld) }
                let shared = try secret.open(pending.sealedSecret, for: .secondFactorSecret)
                guard let step = TOTP.matchingStep(of: code, secret: shared, at: now, window: policy.adjacentIntervals) else {
                    return .refused(.invalidCode)
                }
                guard try await transaction.deletePendingEnrollment(sessionHash: sessionHash) else { return .refused(.invalidSessionInfo) }
                return try await enroll(account, .totp(sealedSecret: pending.sealedSecret, lastUsedStep: step), transaction)
            case .phone(let sessionInfo, let code):
                let redeemed = try await codes.redeem(sessionInfo: sessionInfo, code: code, for: .enrollment, at: now, in: transaction)
                if let refusal = redeemed.refusal { return .refused(refusal) }
                let verification = try redeemed.get()
                guard verification.accountID == account.id else { return .refused(.invalidSessionInfo) }
                guard claims.isRecentLogin(at: now, within: recentLogin) else { return .refused(.credentialTooOld) }
                guard !factors.contains(where: { $0.phoneNumber == verification.phoneNumber }) else { return .refused(.secondFactorExists) }
                return try await enroll(account, .phone(verification.phoneNumber), transaction)
            }
        }
        return try signedInAgain(verdict, logger: logger, "Second factor enrolled")
    }

    /// The code a finalize request brings: an authenticator's, or one texted to the phone.
    private enum Proof: Sendable {
        case authenticator(sessionInfo: String, code: String)
        case phone(sessionInfo: String, code: String)

        /// The request's proof; a code's form is checked with its value, so a malformed code is simply a wrong one.
        init(_ request: FinalizeMfaEnrollmentRequest) throws(SignInError) {
            if let phone = request.phoneVerificationInfo, request.totpVerificationInfo == nil {
                guard let sessionInfo = phone.sessionInfo, !sessionInfo.isEmpty else { throw .missingSessionInfo }
                guard let code = phone.code, !code.isEmpty else { throw .missingCode }
                self = .phone(sessionInfo: sessionInfo, code: code)
                return
            }
            guard let verification = request.totpVerificationInfo else { throw .unsupportedSecondFactor("MFA provider not supported!") }
            guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else { throw .missingSessionInfo }
            guard let code = verification.verificationCode, !code.isEmpty else { throw .missingCode }
            self = .authenticator(sessionInfo: sessionInfo, code: code)
        }
    }

    /// Enrolls `factor`, its code proven, and signs the user in again with it. Every other session ends: raising
    /// `validSince` first also holds the account's row, so two enrollments at once count each other's factor, and past
    /// the limit the thrown refusal undoes the raise and what the proof spent.
    private func enroll(
        _ factor: SecondFactor, of account: Account, claims: IDTokenClaims, language: LanguageTag, requester: RequesterSummary, at now: Date,
        in transaction: any StoreTransaction
    ) async throws -> Verdict<SignInFinisher.Finished> {
        try await transaction.raiseValidSince(accountID: account.id, to: now.wholeSeconds)
        guard try await transaction.secondFactors(accountID: account.id).count < policy.maximumFactors else { throw SignInError.secondFactorLimitExceeded }
        try await transaction.insert(factor)
        try await transaction.revokeSessions(accountID: account.id, at: now)
        let detail = factor.kind == .phone ? "phone enrolled" : "authenticator enrolled"
        for kind in [AuditEvent.Kind.secondFactorAdded, .sessionsRevoked] {
            try await transaction.record(AuditEvent(kind, at: now, accountID: account.id, email: account.email, requester: requester, detail: detail))
        }
        try await notices.queue(
            SecurityNotice(.factorAdded, of: factor, language: language, at: now, requester: requester), to: account, at: now,
            in: transaction)
        return .accepted(try await Self.reopen(claims, account, secondFactor: factor.passed, finisher: finisher, at: now, in: transaction))
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
                SecurityNotice(.factorRemoved, of: factor, language: language, at: now, requester: requester), to: account,
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
