import Foundation

/// The one way a sign-in ends, whatever first factor proved who signs in (an email link, a password, a new anonymous
/// or password account, a user's own password change, an identity provider).
///
/// Inside the first factor's transaction it applies the takeover rule, writes the account and its email identity,
/// opens the session and audits the sign-in; after the commit it signs the tokens. Sessions are opened nowhere else,
/// so a second factor has one place to stand between the first factor and the session.
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

    /// A sign-in written to the store, waiting for its tokens.
    package struct Finished: Sendable {
        package let user: UserRecord
        let refresh: IssuedRefreshToken
        package let authTime: Date
        package let isNewUser: Bool
        /// Whether the takeover rule stripped credentials.
        package let tookOver: Bool

        /// The session it opened.
        package var sessionID: String { refresh.sessionID }
    }

    let minter: SessionMinter

    package init(minter: SessionMinter) {
        self.minter = minter
    }

    /// Finishes `attempt` inside the caller's transaction. A disabled account is refused (whatever the first factor
    /// spent stays spent); an account clash throws `AccountConflict`, rolling the transaction back.
    package func finish(_ attempt: Attempt, at now: Date, in transaction: any StoreTransaction) async throws -> Verdict<Finished> {
        var account = attempt.account
        guard !account.isDisabled else { return .refused(.userDisabled) }
        let tookOver = attempt.provesAddressOnly && attempt.stored.map { !$0.isEmailVerified } == true
        if tookOver {
            // Whoever held this account before the address was proven (a password, or a password since removed, an
            // address set on an anonymous account, another provider's identity) loses it and every session now.
            account.passwordHash = nil
            account.validSince = now.wholeSeconds
            try await transaction.revokeSessions(accountID: account.id, at: now)
            for identity in try await transaction.identities(accountID: account.id) where identity.providerID != SignInProvider.password.id {
                try await transaction.deleteIdentities(accountID: account.id, providerID: identity.providerID)
            }
            for kind in [AuditEvent.Kind.passwordStripped, .sessionsRevoked] {
                try await transaction.record(
                    AuditEvent(
                        kind, at: now, accountID: account.id, email: account.email, requester: attempt.requester,
                        detail: "address proven by another party"))
            }
        }
        account.lastSignInAt = now
        try await transaction.saveAccount(account, stored: attempt.stored, createsEmailIdentity: attempt.identity == nil)
        if let identity = attempt.identity { try await transaction.save(identity) }
        // A second factor, once enrolled, is asked for here instead of opening the session (#18).
        let refresh = minter.makeRefreshToken(signingInWith: attempt.provider, at: now)
        try await transaction.insert(
            SessionRecord(id: refresh.sessionID, accountID: account.id, signInProvider: attempt.provider, authTime: now, createdAt: now))
        try await transaction.insert(refresh.record(now: now))
        try await transaction.record(
            AuditEvent(
                .signInCompleted, at: now, accountID: account.id, email: account.email, requester: attempt.requester,
                detail: attempt.auditDetail ?? (attempt.stored == nil ? "new account" : nil)))
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
        return .accepted(Finished(user: user, refresh: refresh, authTime: now, isNewUser: attempt.stored == nil, tookOver: tookOver))
    }

    /// Signs the tokens of a finished sign-in, after its transaction committed.
    package func session(for finished: Finished) throws -> Session {
        try minter.session(
            for: finished.user, authTime: finished.authTime, refresh: finished.refresh, now: finished.authTime, isNewUser: finished.isNewUser)
    }
}
