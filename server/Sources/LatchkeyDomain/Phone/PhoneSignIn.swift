import Foundation
import LatchkeyWire
import Logging

/// Signing in with a texted code: `accounts:sendVerificationCode`, then `accounts:signInWithPhoneNumber`, which signs in
/// to the account that has the number, creates one for a new number, or with an `idToken` links the number to that
/// account, as Firebase does (firebase-tools `src/emulator/auth/operations.ts`, `sendVerificationCode` and
/// `signInWithPhoneNumber`; firebase-js-sdk `packages/auth/src/api/authentication/sms.ts`).
///
/// The text goes out as `PhoneTexting` sends every code (region, app verification, limits). As in Firebase, an account with second factors cannot sign in, or be linked, with a number
/// (`UNSUPPORTED_FIRST_FACTOR`); and linking a number another account has answers a `temporaryProof` instead of a
/// session, which signs in to that account once within the hour.
package struct PhoneSignIn: Sendable {
    let store: any Store
    let authentication: Authentication
    let finisher: SignInFinisher
    let texting: PhoneTexting
    let limiter: RateLimiter
    let clock: any WallClock
    let recentLogin: TimeInterval

    package init(
        store: any Store, authentication: Authentication, finisher: SignInFinisher, texting: PhoneTexting, limiter: RateLimiter, clock: any WallClock,
        recentLogin: TimeInterval
    ) {
        self.store = store
        self.authentication = authentication
        self.finisher = finisher
        self.texting = texting
        self.limiter = limiter
        self.clock = clock
        self.recentLogin = recentLogin
    }

    private var codes: PhoneCodes { texting.codes }

    /// What `signInWithPhoneNumber` ends with: a session, or a proof of a number another account has.
    package enum Outcome: Sendable {
        case signedIn(Session, PhoneNumber)
        case numberTaken(PhoneNumber, temporaryProof: String)
    }

    /// `accounts:sendVerificationCode`: texts a sign-in code to the request's number and returns its `sessionInfo`.
    package func sendCode(_ request: SendVerificationCodeRequest, language: LanguageTag, by caller: Caller, logger: Logger) async throws -> String {
        try Tenancy.requireNoTenant(request.tenantId)
        let number = try PhoneNumber(requestField: request.phoneNumber)
        let sessionInfo = try await texting.send(.signIn, to: number, proof: request, by: caller, language: language)
        logger.debug("Sign-in code texted", metadata: ["phone": "\(number.redacted)"])
        return sessionInfo
    }

    /// `accounts:signInWithPhoneNumber`: the code of a `sessionInfo`, or a `temporaryProof` with its number, signs in.
    package func signIn(_ request: SignInWithPhoneNumberRequest, by caller: Caller, logger: Logger) async throws -> Outcome {
        try Tenancy.requireNoTenant(request.tenantId)
        let proof: (String, PhoneNumber)?
        if let temporaryProof = request.temporaryProof, !temporaryProof.isEmpty {
            guard let raw = request.phoneNumber, !raw.isEmpty else { throw SignInError.missingPhoneNumber }
            guard let number = PhoneNumber(raw) else { throw SignInError.invalidTemporaryProof }
            proof = (temporaryProof, number)
        } else {
            guard let sessionInfo = request.sessionInfo, !sessionInfo.isEmpty else { throw SignInError.missingSessionInfo }
            guard let code = request.code, !code.isEmpty else { throw SignInError.missingCode }
            proof = nil
        }
        var claims: IDTokenClaims?
        if let idToken = request.idToken, !idToken.isEmpty { claims = try await authentication.claims(of: idToken) }
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let outcome = try await finish(request, proof: proof, linkingTo: claims, caller: caller)
        codes.nudge()
        if case .signedIn(let session, _) = outcome {
            logger.debug("Phone sign-in", metadata: ["account": "\(session.account.id)", "new": "\(session.isNewUser)"])
        }
        return outcome
    }

    /// Two first sign-ins of one new number racing on PostgreSQL both try to create its account; the loser's unique
    /// constraint refusal is answered by signing in to the winner's. The code was spent by the loser's rolled-back
    /// transaction only, so the second round redeems it again.
    private func finish(
        _ request: SignInWithPhoneNumberRequest, proof: (String, PhoneNumber)?, linkingTo claims: IDTokenClaims?, caller: Caller
    ) async throws -> Outcome {
        do {
            return try await finishOnce(request, proof: proof, linkingTo: claims, caller: caller)
        } catch AccountConflict.phoneNumberTaken where claims == nil {
            return try await finishOnce(request, proof: proof, linkingTo: claims, caller: caller)
        }
    }

    private func finishOnce(
        _ request: SignInWithPhoneNumberRequest, proof: (String, PhoneNumber)?, linkingTo claims: IDTokenClaims?, caller: Caller
    ) async throws -> Outcome {
        let (now, codes, finisher, recentLogin) = (clock.now, codes, finisher, recentLogin)
        let verdict = try await store.write { transaction -> Verdict<Step> in
            let proven: Verdict<PhoneNumber> =
                if let (temporaryProof, number) = proof {
                    try await codes.spend(proof: temporaryProof, of: number, at: now, in: transaction)
                } else {
                    try await codes.redeem(sessionInfo: request.sessionInfo ?? "", code: request.code ?? "", for: .signIn, at: now, in: transaction)
                        .map(\.phoneNumber)
                }
            if let refusal = proven.refusal { return .refused(refusal) }
            let number = try proven.get()
            let owner = try await transaction.lockedAccount(phoneNumber: number)
            var stored = owner
            if let claims {
                let linked = try await Authentication.account(of: claims, in: transaction, locking: true)
                if let owner, owner.id != linked.id {
                    // The code is spent on a number another account has: a proof of it signs in there instead.
                    guard proof == nil else { return .refused(.phoneNumberExists) }
                    return .accepted(.proved(number, try await codes.prove(number, at: now, in: transaction)))
                }
                guard claims.mayChangeSignIn(of: try await transaction.userRecord(linked), at: now, within: recentLogin) else {
                    return .refused(.credentialTooOld)
                }
                stored = linked
            }
            if let stored, try await !transaction.secondFactors(accountID: stored.id).isEmpty { return .refused(.phoneFirstFactorOfEnrolledAccount) }
            var account = stored ?? .new(email: nil, at: now)
            account.phoneNumber = number
            var attempt = SignInFinisher.Attempt(
                account: account, stored: stored, provider: .phone, requester: caller.requester,
                auditDetail: claims != nil ? "phone linked" : stored == nil ? "phone, new account" : "phone")
            if let claims { attempt.secondFactor = claims.carriedSecondFactor }
            return try await finisher.finish(attempt, at: now, in: transaction).map { .finished($0, number) }
        }
        switch try verdict.get() {
        case .finished(let finished, let number): return .signedIn(try finisher.session(for: finished), number)
        case .proved(let number, let temporaryProof): return .numberTaken(number, temporaryProof: temporaryProof)
        }
    }

    /// What the sign-in's transaction ended with.
    private enum Step: Sendable {
        case finished(SignInFinisher.Finished, PhoneNumber)
        case proved(PhoneNumber, String)
    }
}
