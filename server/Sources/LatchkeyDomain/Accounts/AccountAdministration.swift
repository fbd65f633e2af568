import Foundation
import LatchkeyWire
import Logging

/// `accounts:update` and `accounts:delete`, for the signed-in user or an admin.
package struct AccountAdministration: Sendable {
    let store: any Store
    let authentication: Authentication
    let actionCodes: ActionCodes
    let hasher: PasswordHasher
    let clock: any WallClock
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let recentLogin: TimeInterval
    /// What a password an admin or the user sets must contain; `Creation` is checked against it too.
    package let passwordPolicy: PasswordPolicy
    let metrics: SignInMetrics

    package init(
        store: any Store, authentication: Authentication, actionCodes: ActionCodes, hasher: PasswordHasher, clock: any WallClock,
        finisher: SignInFinisher, notices: SecurityNotices, recentLogin: TimeInterval, passwordPolicy: PasswordPolicy = PasswordPolicy(),
        metrics: SignInMetrics = SignInMetrics()
    ) {
        self.store = store
        self.authentication = authentication
        self.actionCodes = actionCodes
        self.hasher = hasher
        self.clock = clock
        self.finisher = finisher
        self.notices = notices
        self.recentLogin = recentLogin
        self.passwordPolicy = passwordPolicy
        self.metrics = metrics
    }

    /// `accounts:update`. With `oobCode`, Firebase's applyActionCode: the code alone says what changes, and for whom.
    /// Otherwise the changes `request` asks for, of the account its ID token signs in or, for an admin without one, of
    /// `localId`'s; `language` is the request's, for the notice of removed factors.
    package func update(_ request: SetAccountInfoRequest, language: LanguageTag, by caller: Caller, logger: Logger) async throws -> (
        UserRecord, Session?
    ) {
        if let code = request.oobCode, !code.isEmpty {
            return (try await actionCodes.apply(try OOBCode.requestField(code), by: caller, logger: logger).user, nil)
        }
        let actor = try await AccountActor.of(idToken: request.idToken, localId: request.localId, by: caller, authentication: authentication)
        let changes = try AccountChanges(request, language: language, by: actor, passwordPolicy: passwordPolicy)
        return try await update(with: changes, by: actor, requester: caller.requester, logger: logger)
    }

    /// Applies `changes`; a password change ends every other session, spends the reset codes mailed before it, and
    /// returns a fresh session to a user changing their own password (an admin gets none: it would be the user's).
    private func update(with changes: AccountChanges, by actor: AccountActor, requester: RequesterSummary, logger: Logger) async throws -> (
        UserRecord, Session?
    ) {
        var passwordHash: String?
        if let password = changes.password { passwordHash = try await hasher.hash(password) }
        let now = clock.now
        let newHash = passwordHash
        let outcome: Verdict<(UserRecord, SignInFinisher.Finished?)>
        do {
            outcome = try await store.write { transaction in
                // Inside the write, so a revocation that raced this request still counts.
                let stored = try await actor.account(in: transaction)
                if case .user(let claims) = actor, changes.isSensitive,
                    !claims.mayChangeSignIn(of: try await transaction.userRecord(stored), at: now, within: recentLogin)
                {
                    return .refused(.credentialTooOld)
                }
                let current = try await apply(changes, newHash: newHash, to: stored, by: actor, requester: requester, at: now, in: transaction)
                if newHash != nil, case .user(let claims) = actor {
                    // The user's own new password signs them in again: the new session starts with the change itself, and
                    // keeps the second factor the user's session passed.
                    var attempt = SignInFinisher.Attempt(
                        account: current, stored: stored, provider: .password, requester: requester, auditDetail: "password changed")
                    attempt.secondFactor = .carried(claims.passedSecondFactor)
                    return try await finisher.finish(attempt, at: now, in: transaction).map { ($0.user, $0) }
                }
                try await transaction.saveAccount(current, stored: stored, at: now)
                return .accepted((try await transaction.userRecord(current), nil))
            }
        } catch let conflict as AccountConflict {
            // Thrown, not returned: the audit rows and revocations written before the clash are undone with it.
            throw conflict.refusal
        }
        let (user, finished) = try outcome.get()
        if changes.removesSecondFactors || changes.phoneFactors != nil || changes.password != nil { notices.nudge() }
        logger.debug("Account updated", metadata: ["account": "\(user.account.id)"])
        return (user, try finished.map(finisher.session(for:)))
    }

    /// `stored` with `changes` applied, auditing a change of status and revoking sessions when they end.
    private func apply(
        _ changes: AccountChanges, newHash: String?, to stored: Account, by actor: AccountActor, requester: RequesterSummary, at now: Date,
        in transaction: any StoreTransaction
    ) async throws -> Account {
        var current = stored
        if let email = changes.email, email != current.email {
            // A proven address is left only for another proven one (VERIFY_AND_CHANGE_EMAIL), whose change mails the old
            // address its undo: a direct change would leave it for an address nobody proved, with no way back.
            if case .user = actor, current.isEmailVerified { throw SignInError.verifyNewEmailFirst }
            current.email = email
            current.isEmailVerified = false
        }
        if let displayName = changes.displayName { current.displayName = displayName }
        if let photoURL = changes.photoURL { current.photoURL = photoURL }
        if changes.deletesDisplayName { current.displayName = nil }
        if changes.deletesPhotoURL { current.photoURL = nil }
        if let customClaims = changes.customClaims { current.customClaims = customClaims }
        if let phoneNumber = changes.phoneNumber { current.phoneNumber = phoneNumber }
        // The email identity stays with the password gone: email-link sign-in is not a credential one can delete. An
        // unlinked provider's sessions end with it (Firebase leaves them alive), so a lost provider account leaves no way in;
        // so do a removed number's.
        for providerID in changes.deletedProviders {
            if providerID == SignInProvider.password.id {
                current.passwordHash = nil
            } else {
                if providerID == SignInProvider.phone.id { current.phoneNumber = nil }
                try await transaction.deleteIdentities(accountID: current.id, providerID: providerID)
                if try await transaction.revokeSessions(accountID: current.id, signedInWith: providerID, at: now) > 0 {
                    try await transaction.record(
                        AuditEvent(
                            .sessionsRevoked, at: now, accountID: current.id, email: current.email, requester: requester,
                            detail: "\(providerID) unlinked by \(actor.auditName)"))
                }
            }
        }
        if let isDisabled = changes.isDisabled, isDisabled != current.isDisabled {
            current.isDisabled = isDisabled
            try await transaction.record(
                AuditEvent(
                    isDisabled ? .accountDisabled : .accountEnabled, at: now, accountID: current.id, email: current.email, requester: requester,
                    detail: actor.auditName))
        }
        if let isEmailVerified = changes.isEmailVerified { current.isEmailVerified = isEmailVerified }
        if changes.removesSecondFactors, try await transaction.deleteSecondFactors(accountID: current.id) > 0 {
            try await transaction.record(
                AuditEvent(
                    .secondFactorRemoved, at: now, accountID: current.id, email: current.email, requester: requester,
                    detail: "every factor, by \(actor.auditName)"))
            try await notices.queue(
                SecurityNotice(.allFactorsRemoved, language: changes.language, at: now, requester: requester), to: current, at: now, in: transaction)
        }
        if let entries = changes.phoneFactors {
            try await setPhoneFactors(entries, of: current, language: changes.language, by: actor, requester: requester, at: now, in: transaction)
        }
        // Disabling blocks refresh and lookup by itself (as in Firebase, re-enabling restores the sessions).
        if let newHash {
            current.passwordHash = newHash
            // A reset mailed before the change must not undo it.
            if let email = stored.email { try await transaction.spendOutstandingRequests(for: email, action: .resetPassword, at: now) }
            if stored.passwordHash == nil {
                try await notices.queue(SecurityNotice(.passwordAdded, language: changes.language, at: now, requester: requester), to: stored, at: now, in: transaction)
            }
        }
        guard newHash != nil || changes.validSince != nil else { return current }
        // A future validSince would lock the account out for good; one in the past revokes nothing new.
        let requested = min(changes.validSince ?? now, now).wholeSeconds
        if requested > current.validSince || newHash != nil {
            current.validSince = max(current.validSince, requested)
            try await transaction.revokeSessions(accountID: current.id, at: now)
            try await transaction.record(
                AuditEvent(
                    .sessionsRevoked, at: now, accountID: current.id, email: current.email, requester: requester,
                    detail: "\(newHash != nil ? "password changed" : "validSince set") by \(actor.auditName)"))
        }
        return current
    }

    /// `accounts:delete`: deletes the account its ID token signs in (after a recent sign-in) or, for an admin without one,
    /// `localId`'s, with its sessions. Pending sign-in links for its address stay harmless: completing one creates a
    /// fresh account.
    package func delete(_ request: DeleteAccountRequest, by caller: Caller, logger: Logger) async throws {
        let actor = try await AccountActor.of(idToken: request.idToken, localId: request.localId, by: caller, authentication: authentication)
        let (now, recentLogin, requester) = (clock.now, recentLogin, caller.requester)
        let verdict = try await store.write { transaction -> Verdict<Account> in
            let account = try await actor.account(in: transaction)
            if case .user(let claims) = actor, !claims.isRecentLogin(at: now, within: recentLogin) { return .refused(.credentialTooOld) }
            try await transaction.delete(account, by: actor, requester: requester, at: now)
            return .accepted(account)
        }
        let deleted = try verdict.get()
        logger.debug("Account deleted", metadata: ["account": "\(deleted.id)"])
    }
}
