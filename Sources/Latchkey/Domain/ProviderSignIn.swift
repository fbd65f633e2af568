import Foundation
import Logging

/// Signs in, signs up or links with an identity a provider vouched for, by Firebase's account-resolution table
/// (spec §4.3), in one write transaction. Every attempt, a forged credential's too, first counts against the per-IP
/// limit on sign-in completions (`admit`).
///
/// - A linking request (a Firebase ID token) adds the identity to that account, unless the identity signs in somewhere
///   already (`FEDERATED_USER_ID_ALREADY_LINKED`), its address belongs to another account (`EMAIL_EXISTS`) or the token's
///   sign-in is not recent (`IDTokenClaims.mayChangeSignIn`); the account's address is told of the new way in.
/// - A known identity signs in to its account.
/// - A new identity whose address has an account signs in to that account only when the provider vouches for the
///   address; that proof takes over an account whose address was never verified (the takeover rule, in the finisher).
///   Otherwise the answer is "needs confirmation": no tokens and no change, so an unverified address never takes an
///   account.
/// - Otherwise a new account is made. `signIn.allowDuplicateEmails` drops every address rule: one account per identity.
package struct ProviderSignIn: Sendable {
    /// How a sign-in with a provider ends.
    package enum Outcome: Sendable {
        /// Signed in or linked (or stopped at the account's second factor); `emailRecycled` when the account's entry for
        /// this provider named another user id before.
        case signedIn(SignInResult, emailRecycled: Bool)
        /// The address belongs to an account the provider cannot vouch for: the user signs in there the old way first.
        case needsConfirmation(accountID: String, verifiedProviders: [String])
    }

    let store: any Store
    let limiter: RateLimiter
    let clock: any WallClock
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let recentLogin: TimeInterval
    let allowsDuplicateEmails: Bool

    package init(
        store: any Store, limiter: RateLimiter, clock: any WallClock, finisher: SignInFinisher, notices: SecurityNotices, recentLogin: TimeInterval,
        allowsDuplicateEmails: Bool
    ) {
        self.store = store
        self.limiter = limiter
        self.clock = clock
        self.finisher = finisher
        self.notices = notices
        self.recentLogin = recentLogin
        self.allowsDuplicateEmails = allowsDuplicateEmails
    }

    /// Counts one attempt of `caller` against the per-IP completion limit (an admin's against none), or throws
    /// `RateLimited`: called before the provider's credential is checked, so that floods of forged ones count too.
    package func admit(_ caller: Caller) async throws {
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
    }

    /// Resolves `identity`, linking it to the account of `linking` (a verified Firebase ID token) when given. With
    /// `autoCreate` false (re-authentication), an identity without an account is `USER_NOT_FOUND`. The caller has been
    /// admitted already.
    package func signIn(
        _ identity: VerifiedIdentity, linking: IDTokenClaims? = nil, autoCreate: Bool = true, language: LanguageTag = .english,
        by caller: Caller = Caller(), logger: Logger
    ) async throws -> Outcome {
        let (now, requester) = (clock.now, caller.requester)
        let attempt = { @Sendable in
            try await store.write { transaction in
                try await resolve(identity, linking: linking, autoCreate: autoCreate, language: language, requester: requester, now: now, in: transaction)
            }
        }
        let verdict: Verdict<Resolution>
        do {
            verdict = try await attempt()
        } catch is AccountConflict where linking == nil {
            // A sign-in racing this one made the account or took the identity meanwhile: this one now finds it.
            verdict = try await attempt()
        }
        if linking != nil, case .accepted = verdict { notices.nudge() }
        switch try verdict.get() {
        case .finished(let finished, let recycled):
            logger.debug("Provider sign-in", metadata: ["provider": "\(identity.providerID)", "account": "\(finished.user.account.id)"])
            return .signedIn(try finisher.result(for: finished), emailRecycled: recycled)
        case .needsConfirmation(let accountID, let providers):
            return .needsConfirmation(accountID: accountID, verifiedProviders: providers)
        }
    }

    private enum Resolution: Sendable {
        case finished(SignInFinisher.Finished, emailRecycled: Bool)
        case needsConfirmation(accountID: String, verifiedProviders: [String])
    }

    private func resolve(
        _ identity: VerifiedIdentity, linking: IDTokenClaims?, autoCreate: Bool, language: LanguageTag, requester: RequesterSummary, now: Date,
        in transaction: any StoreTransaction
    ) async throws -> Verdict<Resolution> {
        let provider = SignInProvider(id: identity.providerID)
        let known = try await transaction.identity(providerID: identity.providerID, providerUserID: identity.subject)
        // Read, not held: a transaction holds at most one account (the one it changes), so two sign-ins that touch the
        // same two accounts cannot wait on each other. The owner is held below when it is the one changed.
        let owner = allowsDuplicateEmails ? nil : try await identity.email.asyncFlatMap { try await transaction.account(email: $0) }
        func finish(_ attempt: SignInFinisher.Attempt, recycled: Bool = false) async throws -> Verdict<Resolution> {
            try await finisher.finish(attempt, at: now, in: transaction).map { .finished($0, emailRecycled: recycled) }
        }

        if let linking {
            let checked = try await AccountLookup.check(linking, in: transaction, locking: true)
            guard case .accepted(var account) = checked else { return .refused(checked.refusal ?? .invalidIDToken) }
            guard known == nil else { return .refused(.federatedUserIDAlreadyLinked) }
            if let owner, owner.id != account.id { return .refused(.emailExists) }
            guard linking.mayChangeSignIn(of: try await transaction.userRecord(account), at: now, within: recentLogin) else {
                return .refused(.credentialTooOld)
            }
            let stored = account
            if !allowsDuplicateEmails, let email = identity.email {
                if account.email == nil { (account.email, account.isEmailVerified) = (email, identity.isEmailVerified) }
                if identity.isEmailVerified, account.email == email { account.isEmailVerified = true }
            }
            var attempt = SignInFinisher.Attempt(
                account: account, stored: stored, provider: provider, identity: entry(identity, account: account.id, now: now), requester: requester,
                auditDetail: "linked \(identity.providerID)")
            // Another identity of the same provider is replaced, its index entry with it.
            attempt.replacesProviderIdentities = true
            attempt.secondFactor = linking.carriedSecondFactor
            let verdict = try await finish(attempt)
            if case .accepted = verdict {
                try await notices.queue(
                    SecurityNotice(.providerLinked, providerName: provider.brandName, language: language, at: now, requester: requester), to: stored,
                    at: now, in: transaction)
            }
            return verdict
        }
        if let known {
            guard let account = try await transaction.lockedAccount(id: known.accountID) else { return .refused(.userNotFound) }
            var refreshed = entry(identity, account: account.id, now: now)
            refreshed.createdAt = known.createdAt
            return try await finish(.init(account: account, stored: account, provider: provider, identity: refreshed, requester: requester))
        }
        if let unheld = owner {
            guard let owner = try await transaction.lockedAccount(id: unheld.id), owner.email == unheld.email else { return .refused(.userNotFound) }
            guard identity.isEmailVerified else {
                let providers = try await transaction.identities(accountID: owner.id).map(\.providerID)
                return .accepted(.needsConfirmation(accountID: owner.id, verifiedProviders: providers.filter { !["password", "phone"].contains($0) }))
            }
            // The provider proves the address: the account is this user's, and what it had before is stripped when the
            // address was never proven (the finisher's takeover rule). Its profile is the provider's now.
            var account = owner
            account.isEmailVerified = true
            (account.displayName, account.photoURL) = (identity.displayName, identity.photoURL)
            // An entry of the same provider under another user id (a recycled address) is replaced.
            let recycled = try await transaction.identities(accountID: owner.id).contains { $0.providerID == identity.providerID }
            var attempt = SignInFinisher.Attempt(
                account: account, stored: owner, provider: provider, provesAddressOnly: true, identity: entry(identity, account: owner.id, now: now),
                requester: requester, auditDetail: "address proven by \(identity.providerID)")
            attempt.replacesProviderIdentities = recycled
            return try await finish(attempt, recycled: recycled)
        }
        guard autoCreate else { return .refused(.userNotFound) }
        var account = Account.new(email: allowsDuplicateEmails ? nil : identity.email, at: now)
        account.isEmailVerified = account.email != nil && identity.isEmailVerified
        (account.displayName, account.photoURL) = (identity.displayName, identity.photoURL)
        return try await finish(.init(account: account, stored: nil, provider: provider, identity: entry(identity, account: account.id, now: now), requester: requester))
    }

    /// The account's entry for the provider: Firebase's `providerUserInfo` item, refreshed at every sign-in.
    private func entry(_ identity: VerifiedIdentity, account: String, now: Date) -> Identity {
        Identity(
            providerID: identity.providerID, providerUserID: identity.subject, accountID: account, email: identity.email,
            isEmailVerified: identity.isEmailVerified, displayName: identity.displayName, photoURL: identity.photoURL,
            rawProfile: identity.rawUserInfo, createdAt: now)
    }
}

extension Optional {
    fileprivate func asyncFlatMap<U>(_ transform: (Wrapped) async throws -> U?) async rethrows -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
