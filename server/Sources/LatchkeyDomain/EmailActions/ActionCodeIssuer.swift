import Foundation
import Logging

/// Issues the codes of the email actions other than sign-in (password reset, address verification, address change):
/// stores the pending request for its account and queues its letter in one transaction, as `LinkIssuer` does for sign-in.
///
/// A password reset is asked for by address with the API key alone, so with enumeration protection its answer never tells
/// whether the address has an account: for none (or a disabled one) nothing is stored or sent, and the caller is told
/// the same as when a letter went out.
package struct ActionCodeIssuer: Sendable {
    /// What the app asked for, its fields checked (`send(_:_:settings:language:apiKey:by:logger:)`).
    struct Request: Sendable {
        var action: EmailAction
        var subject: Subject
        /// The address an address change moves to, where its letter goes.
        var newEmail: EmailAddress?
        var settings: ActionCodeSettings
        var language: LanguageTag
        var apiKey: String
        var caller: Caller

        init(
            _ action: EmailAction, for subject: Subject, newEmail: EmailAddress? = nil, settings: ActionCodeSettings, language: LanguageTag,
            apiKey: String, caller: Caller
        ) {
            self.action = action
            self.subject = subject
            self.newEmail = newEmail
            self.settings = settings
            self.language = language
            self.apiKey = apiKey
            self.caller = caller
        }

        /// Where the letter goes: the new address of a change, otherwise the account's.
        var recipient: EmailAddress { newEmail ?? subject.address }
    }

    /// Whose account the code is for.
    enum Subject: Sendable {
        /// The signed-in user (a verification, an address change), whether the token still counts decided inside the
        /// write; `address` is the account's address as read before it, which the per-address window counts.
        case signedIn(IDTokenClaims, address: EmailAddress)
        /// The account with this address: anyone's request for a password reset, an admin's for any action.
        case owner(of: EmailAddress)

        var address: EmailAddress {
            switch self {
            case .signedIn(_, let address), .owner(let address): address
            }
        }
    }

    /// How a request ended inside its transaction.
    private enum Outcome: Sendable {
        case issued(Issued)
        /// Nothing to send (no enabled account, or a taken new address), answered as sent under enumeration protection.
        case answeredAsSent
    }

    /// What was issued: the code and link (for an admin's `returnOobLink`) and the account's address.
    package struct Issued: Sendable {
        package var code: String
        package var link: ActionLink
        package var email: EmailAddress
    }

    let store: any Store
    let authentication: Authentication
    let secret: ServerSecret
    let clock: any WallClock
    let outbox: OutboxSignal
    let publicURL: URL
    /// How long each action's code lives (`emailActions`).
    let lifetimes: ActionLifetimes
    let enumerationProtection: Bool
    /// The API key an undo's link carries for its page's script (the first configured): the server mails undos unasked.
    let undoAPIKey: String
    /// Development mode logs why a send mailed nothing, as `LinkIssuer` does.
    let isDevelopment: Bool
    let recentLogin: TimeInterval
    let limiter: RateLimiter
    let metrics: SignInMetrics

    package init(
        store: any Store, authentication: Authentication, secret: ServerSecret, clock: any WallClock, outbox: OutboxSignal, publicURL: URL,
        lifetimes: ActionLifetimes, enumerationProtection: Bool, undoAPIKey: String = "", isDevelopment: Bool = false, recentLogin: TimeInterval,
        limiter: RateLimiter, metrics: SignInMetrics = SignInMetrics()
    ) {
        self.store = store
        self.authentication = authentication
        self.undoAPIKey = undoAPIKey
        self.isDevelopment = isDevelopment
        self.secret = secret
        self.clock = clock
        self.outbox = outbox
        self.publicURL = publicURL
        self.lifetimes = lifetimes
        self.enumerationProtection = enumerationProtection
        self.recentLogin = recentLogin
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Creates the code for `request`'s account and queues its letter (with `sendsEmail` false, an admin's
    /// `returnOobLink`, nothing is mailed). Nil means nothing was issued although the caller is told it was.
    ///
    /// Counts against the per-address limit of the recipient and the per-IP limit (an admin's against none), refused
    /// requests too; a full per-address window with enumeration protection answers nil, as for sign-in links.
    func issue(_ request: Request, sendsEmail: Bool = true, logger: Logger) async throws -> Issued? {
        guard request.action.isForAccount else { throw SignInError.invalidRequestType }
        let now = clock.now
        let code = LinkCode.make(at: now)
        let caller = request.caller
        let limits = caller.limits([.init(.sendPerEmail, request.recipient.value), .init(.sendPerIP, caller.ipAddress)])
        let verdict: Verdict<Outcome>
        do {
            verdict = try await limiter.write(counting: limits, email: request.recipient, requester: caller.requester) { transaction in
                guard let found = try await account(for: request, at: now, in: transaction) else { return .accepted(.answeredAsSent) }
                guard case .accepted(let account) = found else { return .refused(found.refusal ?? .userNotFound) }
                guard let email = account.email else { return .refused(.missingEmail) }
                if let newEmail = request.newEmail {
                    guard newEmail != email else { return .refused(.emailExists) }
                    let held = try await transaction.account(email: newEmail) != nil
                    let awaitingUndo = try await transaction.isAwaitingUndo(newEmail, byAnotherThan: account.id, at: now)
                    if held || awaitingUndo {
                        // As for a password reset, with enumeration protection a taken address looks like a free one.
                        return enumerationProtection && !caller.isAdmin ? .accepted(.answeredAsSent) : .refused(.emailExists)
                    }
                }
                let issued = try await record(
                    request.action, for: account.id, email: email, newEmail: request.newEmail, settings: request.settings,
                    language: request.language, apiKey: request.apiKey, requester: caller.requester, sendsEmail: sendsEmail, code: code,
                    at: now, in: transaction)
                return .accepted(.issued(issued))
            }
        } catch let refusal as RateLimited {
            try DroppedSend.check(refusal, enumerationProtection: enumerationProtection)
                .log(to: request.recipient, isDevelopment: isDevelopment, metrics: metrics, logger: logger)
            return nil
        }
        let issued: Issued
        switch try verdict.get() {
        case .issued(let made):
            issued = made
        case .answeredAsSent:
            logger.debug("Email action answered as sent: no account, or the new address is taken", metadata: ["action": "\(request.action)"])
            return nil
        }
        metrics.count(code: .issued)
        if sendsEmail {
            metrics.count(email: .queued)
            outbox.nudge()
        }
        logger.debug("Email action issued", metadata: ["action": "\(request.action)", "account": "\(issued.email.redacted)"])
        return issued
    }

    /// The account the code is for, refused as Firebase refuses it; nil when the request is to be answered as if sent.
    private func account(for request: Request, at now: Date, in transaction: any StoreTransaction) async throws -> Verdict<Account>? {
        switch request.subject {
        case .signedIn(let claims, _):
            let account = try await Authentication.account(of: claims, in: transaction, locking: true)
            if request.action == .verifyAndChangeEmail, !claims.isRecentLogin(at: now, within: recentLogin) { return .refused(.credentialTooOld) }
            return .accepted(account)
        case .owner(let email):
            let account = try await transaction.account(email: email)
            if let account, !account.isDisabled { return .accepted(account) }
            if request.caller.isAdmin { return .refused(account == nil ? (request.action == .resetPassword ? .emailNotFound : .userNotFound) : .userDisabled) }
            // Only a password reset comes here without an admin token (`send` sees to that).
            if enumerationProtection { return nil }
            return .refused(account == nil ? .emailNotFound : .userDisabled)
        }
    }

    /// When `account` leaves its address for `newEmail` (a proven change, or an email link linked to the account), spends
    /// its other codes but its undos and, if its owner had proven the old address, mails that address the undo
    /// (`recoverEmail`), in the caller's transaction. An address never proven gets no undo: its mailbox's reader never
    /// showed it was theirs. True when an undo was queued.
    func addressChanging(
        _ account: Account, to newEmail: EmailAddress, continueURL: String = "", language: LanguageTag, requester: RequesterSummary, at now: Date,
        in transaction: any StoreTransaction
    ) async throws -> Bool {
        try await transaction.spendOutstandingRequests(accountID: account.id, sparingUndosBefore: .max, at: now)
        guard let old = account.email, old != newEmail, account.isEmailVerified else { return false }
        _ = try await record(
            .recoverEmail, for: account.id, email: old, newEmail: newEmail, settings: .returning(to: continueURL), language: language,
            apiKey: undoAPIKey, requester: requester, at: now, in: transaction)
        return true
    }

    /// Stores a code of `action` for the account and queues its letter (to `newEmail` for an address change, otherwise to
    /// `email`), in the caller's transaction: also how an address change mails its undo to the old address.
    func record(
        _ action: EmailAction, for accountID: String, email: EmailAddress, newEmail: EmailAddress?, settings: ActionCodeSettings,
        language: LanguageTag, apiKey: String, requester: RequesterSummary, sendsEmail: Bool = true, code: String? = nil,
        at now: Date, in transaction: any StoreTransaction
    ) async throws -> Issued {
        let lifetime = lifetimes[action]
        let code = code ?? LinkCode.make(at: now)
        let link = ActionLink(action, publicURL: publicURL, code: code, apiKey: apiKey, settings: settings, language: language)
        var pending = PendingRequest(
            action, codeHash: LinkCode.key(code, secret: secret), email: email, createdAt: now, expiresAt: now.addingTimeInterval(lifetime),
            language: language, settings: settings)
        pending.accountID = accountID
        pending.newEmail = newEmail
        try await transaction.insert(pending)
        try await transaction.record(
            AuditEvent(.codeIssued, at: now, accountID: accountID, email: email, requester: requester, detail: sendsEmail ? action.rawValue : "\(action.rawValue), returned to admin"))
        // Undos are never dropped: each is its owner's way back, and an address is no key to another account's undos.
        if action != .recoverEmail {
            try await transaction.dropOutstandingRequests(for: email, action: action, keepingNewest: LinkIssuer.maximumOutstandingCodes)
        }
        if sendsEmail {
            let letter = ActionLetter(
                action, link: link, email: email, newEmail: newEmail, language: language, lifetime: lifetime, requestedAt: now, requester: requester)
            try await transaction.enqueue(try letter.queued(to: pending.recipient, secret: secret, at: now))
        }
        return Issued(code: code, link: link, email: email)
    }
}
