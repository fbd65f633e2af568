import Foundation
import LatchkeyWire
import Logging

/// Signs in, signs up or links with an identity provider's credential (`accounts:signInWithIdp`, v3 `verifyAssertion`):
/// the credential checked with its provider, then Firebase's account-resolution table (spec §4.3) in one write
/// transaction, whose account changes happen in the sign-in's finish (`SignInFinisher`). A `pendingToken` comes only with
/// the answers the SDKs keep a credential from ("needs confirmation", "already in use"); a signed-in answer has none.
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
    /// How a sign-in with a provider ends, with what the provider said (`asserted`), which the answer echoes.
    package struct Answer: Sendable {
        package var asserted: AssertedIdentity
        package var outcome: Outcome
    }

    /// How a sign-in with a provider ends.
    package enum Outcome: Sendable {
        /// Signed in or linked (or stopped at the account's second factor); `emailRecycled` when the account's entry for
        /// this provider named another user id before.
        case signedIn(SignInResult, emailRecycled: Bool)
        /// The address belongs to an account the provider cannot vouch for: the user signs in there the old way first,
        /// then links with `pendingToken`. The account and its verified providers are nil under enumeration protection:
        /// the SDKs need only the address, the provider and the credential.
        case needsConfirmation(accountID: String?, verifiedProviders: [String]?, pendingToken: String)
        /// The SDKs' "credential already in use" (`returnIdpCredential`): `refusal` is `FEDERATED_USER_ID_ALREADY_LINKED`
        /// or `EMAIL_EXISTS`, and `pendingToken` signs in with the credential instead.
        case credentialInUse(SignInError, pendingToken: String)
    }

    let store: any Store
    let assertion: any IdentityAssertion
    let authentication: Authentication
    let limiter: RateLimiter
    let clock: any WallClock
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let recentLogin: TimeInterval
    let allowsDuplicateEmails: Bool
    let enumerationProtection: Bool

    package init(
        store: any Store, assertion: any IdentityAssertion, authentication: Authentication, limiter: RateLimiter, clock: any WallClock, finisher: SignInFinisher,
        notices: SecurityNotices, recentLogin: TimeInterval, allowsDuplicateEmails: Bool, enumerationProtection: Bool
    ) {
        self.store = store
        self.assertion = assertion
        self.authentication = authentication
        self.limiter = limiter
        self.clock = clock
        self.finisher = finisher
        self.notices = notices
        self.recentLogin = recentLogin
        self.allowsDuplicateEmails = allowsDuplicateEmails
        self.enumerationProtection = enumerationProtection
    }

    /// `accounts:signInWithIdp`: counts the attempt against the per-IP completion limit (an admin's against none) before
    /// the credential is checked, so floods of forged ones count too; checks the credential with its provider before
    /// anything is written (a provider that is down, slow or lies is `INVALID_IDP_RESPONSE` and nothing changes); then
    /// resolves the identity, linking it to the account of `request.idToken` when given. With `autoCreate` false
    /// (re-authentication), an identity without an account is `USER_NOT_FOUND`.
    package func signIn(_ request: SignInWithIdpRequest, language: LanguageTag = .english, by caller: Caller = Caller(), logger: Logger) async throws
        -> Answer
    {
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let asserted = try await assertion.assert(
            requestURI: request.requestUri, postBody: request.postBody, sessionID: request.sessionId, pendingToken: request.pendingToken)
        // The token's signature is checked before the write; its session and account inside it (`Authentication`).
        let linking = try await request.idToken.asyncFlatMap { $0.isEmpty ? nil : try await authentication.claims(of: $0) }
        do {
            switch try await signIn(
                asserted.identity, linking: linking, autoCreate: request.autoCreate ?? true, language: language, requester: caller.requester, logger: logger)
            {
            case .finished(let result, let recycled):
                return Answer(asserted: asserted, outcome: .signedIn(result, emailRecycled: recycled))
            case .needsConfirmation(let accountID, let providers):
                let pendingToken = try await assertion.keep(asserted)
                return Answer(
                    asserted: asserted,
                    outcome: enumerationProtection
                        ? .needsConfirmation(accountID: nil, verifiedProviders: nil, pendingToken: pendingToken)
                        : .needsConfirmation(accountID: accountID, verifiedProviders: providers, pendingToken: pendingToken))
            }
        } catch let refusal as SignInError where request.returnIdpCredential == true && [.federatedUserIDAlreadyLinked, .emailExists].contains(refusal) {
            return Answer(asserted: asserted, outcome: .credentialInUse(refusal, pendingToken: try await assertion.keep(asserted)))
        }
    }

    /// Resolves `identity` in one write transaction and finishes the sign-in.
    private func signIn(
        _ identity: VerifiedIdentity, linking: IDTokenClaims?, autoCreate: Bool, language: LanguageTag, requester: RequesterSummary, logger: Logger
    ) async throws -> Resolved {
        let now = clock.now
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
            return .finished(try finisher.result(for: finished), emailRecycled: recycled)
        case .needsConfirmation(let accountID, let providers):
            return .needsConfirmation(accountID: accountID, verifiedProviders: providers)
        }
    }

    /// A resolution once its tokens are signed.
    private enum Resolved: Sendable {
        case finished(SignInResult, emailRecycled: Bool)
        case needsConfirmation(accountID: String, verifiedProviders: [String])
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
            var account = try await Authentication.account(of: linking, in: transaction, locking: true)
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
