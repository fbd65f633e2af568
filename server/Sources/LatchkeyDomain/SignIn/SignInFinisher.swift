import Foundation

/// The one way a sign-in ends, whatever first factor proved who signs in (an email link, a password, a new anonymous
/// or password account, a user's own password change, an identity provider), and where the second factor stands.
///
/// Inside the first factor's transaction it applies the takeover rule, then either writes the account, its identities and
/// a new session, or, for an account with second factors, keeps a challenge with what the sign-in would change
/// (`PendingSignIn`) and changes nothing else: the second factor's code finishes that sign-in here too. After the commit
/// it signs the tokens. Sessions are opened nowhere else.
package struct SignInFinisher: Sendable {
    /// What a first factor proved.
    package struct Attempt: Sendable {
        /// The account as this sign-in leaves it (an address linked, a password upgraded…).
        package var account: Account
        /// The account as stored before, or nil when this sign-in creates it.
        package var stored: Account?
        /// The session's `sign_in_provider`.
        package var provider: SignInProvider
        /// The first factor proved the account's address, but not that the prover already held the account (an email
        /// link to an address with an account): whatever was set up there before the address was proven is stripped.
        package var provesAddressOnly = false
        /// The identity-provider identity this sign-in proves, saved with the account (after any takeover has removed
        /// the account's other providers).
        package var identity: Identity?
        /// Whether the account's other identities of `identity`'s provider go first (one identity per provider: a link
        /// replaces an earlier one, a recycled address's entry is replaced).
        package var replacesProviderIdentities = false
        /// Whether an enrolled second factor is asked for, or was passed already.
        package var secondFactor = SecondFactorStep.askIfEnrolled
        /// A custom token's claims, which every ID token of the new session carries.
        package var developerClaims: CustomClaims?
        package var requester = RequesterSummary()
        /// A few words for the audit event.
        package var auditDetail: String?

        package init(
            account: Account, stored: Account?, provider: SignInProvider, provesAddressOnly: Bool = false, identity: Identity? = nil,
            requester: RequesterSummary = RequesterSummary(), auditDetail: String? = nil
        ) {
            self.account = account
            self.stored = stored
            self.provider = provider
            self.provesAddressOnly = provesAddressOnly
            self.identity = identity
            self.requester = requester
            self.auditDetail = auditDetail
        }
    }

    /// Where a sign-in stands with second factors.
    package enum SecondFactorStep: Sendable, Equatable {
        /// A first factor: an account with factors is asked for a code before its session opens.
        case askIfEnrolled
        /// Signed in already (a user's own password change, linking from a session) or passed just now (the code of a
        /// challenge): the new session carries that factor, if any.
        case carried(PassedSecondFactor?)
    }

    /// A sign-in written to the store, waiting for its tokens.
    package struct Finished: Sendable {
        package let user: UserRecord
        let step: Step
        package let authTime: Date
        /// When its tokens are signed.
        let signedAt: Date
        package let isNewUser: Bool
        /// Whether the takeover rule stripped credentials.
        package let tookOver: Bool

        /// The session it opened, unless it was stopped at the second factor.
        package var sessionID: String? {
            if case .opened(let refresh) = step { refresh.sessionID } else { nil }
        }

        enum Step: Sendable {
            case opened(IssuedRefreshToken)
            case challenged(credential: String, factors: [SecondFactor])
        }
    }

    /// A sign-in that could not be asked for a second factor was: an internal fault, answered 500.
    struct UnexpectedChallenge: Error {}

    let minter: SessionMinter
    let secondFactors: SecondFactorPolicy

    package init(minter: SessionMinter, secondFactors: SecondFactorPolicy = SecondFactorPolicy()) {
        self.minter = minter
        self.secondFactors = secondFactors
    }

    /// Finishes `attempt` inside the caller's transaction. A disabled account is refused (whatever the first factor
    /// spent stays spent, nothing else changes); an account clash throws `AccountConflict`, rolling the transaction back.
    package func finish(_ attempt: Attempt, at now: Date, in transaction: any StoreTransaction) async throws -> Verdict<Finished> {
        var account = attempt.account
        guard !account.isDisabled else { return .refused(.userDisabled) }
        let tookOver = attempt.provesAddressOnly && attempt.stored.map { !$0.isEmailVerified } == true
        if tookOver {
            try await transaction.stripForeignAccess(of: &account, because: "address proven by another party", requester: attempt.requester, at: now)
            // A provider's proof leaves the account that provider only, as in Firebase: the address lists no way in of
            // its own (no `emailLink` it never completed) until it signs in by itself.
            if attempt.identity != nil { try await transaction.deleteIdentities(accountID: account.id, providerID: SignInProvider.password.id) }
            // Every code the earlier holder could still use dies, undos of address changes too.
            try await transaction.spendOutstandingRequests(accountID: account.id, sparingUndosBefore: nil, at: now)
        }
        // A takeover strips the factors, so only an account the first factor did not take over is challenged.
        let factors = try await factorsToAsk(attempt, in: transaction)
        guard factors.isEmpty else { return .accepted(try await challenge(attempt, factors: factors, at: now, in: transaction)) }
        account.lastSignInAt = now
        if let identity = attempt.identity, attempt.replacesProviderIdentities {
            try await transaction.deleteIdentities(accountID: account.id, providerID: identity.providerID)
        }
        try await transaction.saveAccount(account, stored: attempt.stored, createsEmailIdentity: attempt.identity == nil, at: now)
        if let identity = attempt.identity { try await transaction.save(identity) }
        // A new account has just the identities its address and this sign-in give it.
        var user =
            attempt.stored == nil
            ? UserRecord(account: account, identities: [attempt.identity == nil ? account.emailIdentity : nil, attempt.identity].compactMap { $0 })
            : try await transaction.userRecord(account)
        if attempt.identity == nil, let email = account.emailIdentity, !user.identities.contains(where: { $0.providerID == email.providerID }) {
            // An account a provider made signs in by its address for the first time (Firebase's `emailLinkSignin`).
            try await transaction.save(email)
            user.identities.append(email)
        }
        let isNewUser = attempt.stored == nil
        let carried = if case .carried(let factor) = attempt.secondFactor { factor } else { PassedSecondFactor?.none }
        let refresh = try await open(
            accountID: account.id, provider: attempt.provider, secondFactor: carried, developerClaims: attempt.developerClaims, authTime: now,
            at: now, in: transaction)
        try await transaction.record(
            AuditEvent(
                .signInCompleted, at: now, accountID: account.id, email: account.email, requester: attempt.requester,
                detail: attempt.auditDetail ?? (isNewUser ? "new account" : nil)))
        return .accepted(Finished(user: user, step: .opened(refresh), authTime: now, signedAt: now, isNewUser: isNewUser, tookOver: tookOver))
    }

    /// Keeps a challenge for the code of one of `factors`, with what `attempt` changes once the code is right.
    private func challenge(_ attempt: Attempt, factors: [SecondFactor], at now: Date, in transaction: any StoreTransaction) async throws -> Finished {
        let account = attempt.stored ?? attempt.account
        let credential = ServerSecret.makeToken()
        try await transaction.insert(
            SecondFactorChallenge(
                credentialHash: minter.secret.hash(credential, for: .secondFactorChallenge), accountID: account.id, signInProvider: attempt.provider,
                pending: PendingSignIn(attempt), expiresAt: now.addingTimeInterval(secondFactors.challengeLifetime)))
        try await transaction.record(
            AuditEvent(.secondFactorRequested, at: now, accountID: account.id, email: account.email, requester: attempt.requester, detail: attempt.auditDetail))
        return Finished(
            user: try await transaction.userRecord(account), step: .challenged(credential: credential, factors: factors), authTime: now, signedAt: now,
            isNewUser: false, tookOver: false)
    }

    /// A new session for a signed-in user whose way of signing in changed under it (a second factor enrolled or
    /// withdrawn): the presented token's provider and `authTime`, with `secondFactor` or none.
    package func reopen(
        _ account: Account, provider: SignInProvider, secondFactor: PassedSecondFactor?, authTime: Date, at now: Date, in transaction: any StoreTransaction
    ) async throws -> Finished {
        let refresh = try await open(accountID: account.id, provider: provider, secondFactor: secondFactor, authTime: authTime, at: now, in: transaction)
        return Finished(
            user: try await transaction.userRecord(account), step: .opened(refresh), authTime: authTime, signedAt: now, isNewUser: false, tookOver: false)
    }

    /// Opens a session in the caller's transaction and returns its first refresh token: the only place sessions begin.
    private func open(
        accountID: String, provider: SignInProvider, secondFactor: PassedSecondFactor?, developerClaims: CustomClaims? = nil, authTime: Date, at now: Date,
        in transaction: any StoreTransaction
    ) async throws -> IssuedRefreshToken {
        let refresh = minter.makeRefreshToken(signingInWith: provider, secondFactor: secondFactor, developerClaims: developerClaims, at: now)
        try await transaction.insert(refresh.session(accountID: accountID, authTime: authTime, now: now))
        try await transaction.insert(refresh.record(now: now))
        return refresh
    }

    /// The factors `attempt` must pass before its session opens: none unless second factors are on, the first factor
    /// is one they apply to, and the sign-in has not passed one already.
    private func factorsToAsk(_ attempt: Attempt, in transaction: any StoreTransaction) async throws -> [SecondFactor] {
        guard secondFactors.isEnabled, attempt.stored != nil, attempt.secondFactor == .askIfEnrolled,
            SecondFactorPolicy.challenges(firstFactor: attempt.provider)
        else { return [] }
        return try await transaction.secondFactors(accountID: attempt.account.id)
    }

    /// Signs the tokens of a finished sign-in after its transaction committed, or hands back its challenge.
    package func result(for finished: Finished) throws -> SignInResult {
        switch finished.step {
        case .opened(let refresh):
            .signedIn(
                try minter.session(
                    for: finished.user, authTime: finished.authTime, refresh: refresh, now: finished.signedAt, isNewUser: finished.isNewUser))
        case .challenged(let credential, let factors):
            .secondFactorRequired(
                SecondFactorRequired(account: finished.user.account, pendingCredential: credential, factors: factors, isNewUser: finished.isNewUser))
        }
    }

    /// The tokens of a sign-in that cannot be challenged: one that makes its account (a new account has no factor yet),
    /// carries its second factor (`SecondFactorStep.carried`) or was reopened.
    package func session(for finished: Finished) throws -> Session {
        guard case .signedIn(let session) = try result(for: finished) else { throw UnexpectedChallenge() }
        return session
    }
}
