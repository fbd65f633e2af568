import Foundation
import Latchkey
import LatchkeyDomain

/// The store calls of one send and of one completion, made as `LinkIssuer.issue` and `LinkCompleter.complete` make them
/// inside their transactions, through the same `RateLimiter` and the same `Store`.
///
/// What the service computes around its transactions is done once beforehand or not at all: the code and its hash,
/// the link, the letter's JSON and its sealing (one real sealed letter is reused), request parsing and the signed ID
/// token. What the service computes inside a transaction (a completion's account id and refresh token) is computed here
/// too, since it runs on the writer's thread. `StoreReplayTests` checks the statements against the service's own.
package struct StoreReplay: Sendable {
    /// One send's input: a new address and the hash of its code.
    package struct Send: Sendable {
        package var email: EmailAddress
        package var codeHash: Data

        package init(email: EmailAddress, codeHash: Data) {
            self.email = email
            self.codeHash = codeHash
        }
    }

    /// A completion was refused: the code was planted wrong, or the replay no longer matches the store.
    package struct Refused: Error, CustomStringConvertible {
        package var description: String
    }

    let store: any Store
    let limiter: RateLimiter
    let secret: ServerSecret
    let clock: any WallClock
    let codeLifetime: TimeInterval
    let settings: ActionCodeSettings
    let sealedLetter: Data
    let requester: RequesterSummary

    /// `sealedLetter` stands for every send's letter: one the service would queue, sealed under `secret`.
    package init(
        store: any Store, limits: RateLimits, secret: ServerSecret, clock: any WallClock, codeLifetime: TimeInterval,
        settings: ActionCodeSettings, sealedLetter: Data, requester: RequesterSummary
    ) {
        self.store = store
        self.limiter = RateLimiter(limits: limits, secret: secret, store: store, clock: clock)
        self.secret = secret
        self.clock = clock
        self.codeLifetime = codeLifetime
        self.settings = settings
        self.sealedLetter = sealedLetter
        self.requester = requester
    }

    /// `LinkIssuer.issue` for a user's send: the address and the client counted, its cool-off looked up, the pending
    /// request, its audit event, the oldest outstanding codes dropped and the letter queued, in one transaction.
    package func send(_ input: Send) async throws {
        let now = clock.now
        let pending = PendingRequest(
            codeHash: input.codeHash, email: input.email, createdAt: now, expiresAt: now.addingTimeInterval(codeLifetime), language: .english,
            settings: settings)
        let queued = OutboxMessage(recipient: .email(input.email), format: .signInLetter, sealedContent: sealedLetter, createdAt: now)
        let event = AuditEvent(.codeIssued, at: now, email: input.email, requester: requester)
        let checks = [RateLimiter.Check(.sendPerEmail, input.email.value), RateLimiter.Check(.sendPerIP, requester.ipAddress ?? "")]
        try await limiter.write(counting: checks, email: input.email, requester: requester) { transaction in
            guard try await transaction.coolOff(for: input.email, at: now) == nil else { return }
            try await transaction.insert(pending)
            try await transaction.record(event)
            try await transaction.dropOutstandingRequests(for: pending.email, action: .signIn, keepingNewest: LinkIssuer.maximumOutstandingCodes)
            try await transaction.enqueue(queued)
        }
    }

    /// Stores pending requests for codes a completion will use, as a send would but without its other rows.
    package func plant(_ codes: [Send]) async throws {
        let now = clock.now
        let requests = codes.map {
            PendingRequest(
                codeHash: $0.codeHash, email: $0.email, createdAt: now, expiresAt: now.addingTimeInterval(codeLifetime), language: .english,
                settings: settings)
        }
        for chunk in stride(from: 0, to: requests.count, by: 2_000).map({ requests[$0..<min($0 + 2_000, requests.count)] }) {
            try await store.write { transaction in
                for request in chunk { try await transaction.insert(request) }
            }
        }
    }

    /// `LinkCompleter.complete` with a planted code for a new address, up to the signing: the client counted, the code
    /// looked up and consumed, and `SignInFinisher.finish` for a new account (account, email identity, session, refresh
    /// token, audit event), in one transaction.
    package func complete(_ code: Send) async throws {
        let now = clock.now
        let secret = secret
        let requester = requester
        let checks = [RateLimiter.Check(.completePerIP, requester.ipAddress ?? "")]
        let refusal = try await limiter.write(counting: checks, requester: requester) { transaction -> String? in
            guard let pending = try await transaction.pendingRequest(codeHash: code.codeHash), let id = pending.id, !pending.isSpent else {
                return "no such code"
            }
            guard !pending.isExpired(at: now), pending.email == code.email else { return "expired, or another address" }
            guard try await transaction.lockedAccount(email: code.email) == nil else { return "the address has an account" }
            guard try await transaction.consumePendingRequest(id: id, at: now) else { return "used meanwhile" }
            // SignInFinisher.finish: `saveAccount` for a new account (an address awaiting another account's undo is
            // refused), then the session.
            let account = Account(
                id: Account.makeID(at: now), email: code.email, isEmailVerified: true,
                validSince: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                createdAt: now, lastSignInAt: now)
            try await transaction.insert(account)
            if try await transaction.isAwaitingUndo(code.email, byAnotherThan: account.id, at: now) { throw AccountConflict.emailTaken }
            try await transaction.save(
                Identity(
                    providerID: SignInProvider.password.id, providerUserID: code.email.value, accountID: account.id, email: code.email,
                    isEmailVerified: true, createdAt: now))
            let sessionID = SessionRecord.makeID(at: now)
            try await transaction.insert(
                SessionRecord(id: sessionID, accountID: account.id, signInProvider: .password, authTime: now, createdAt: now))
            try await transaction.insert(
                RefreshToken(tokenHash: secret.hash(ServerSecret.makeToken(), for: .refreshToken), sessionID: sessionID, createdAt: now))
            try await transaction.record(
                AuditEvent(.signInCompleted, at: now, accountID: account.id, email: code.email, requester: requester, detail: "new account"))
            return nil
        }
        if let refusal { throw Refused(description: "a planted code was refused: \(refusal)") }
    }
}
