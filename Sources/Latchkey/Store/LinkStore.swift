import Foundation

/// Durable state: pending requests, accounts, refresh tokens and the outbox.
///
/// Domain rules run inside `write`, against a `StoreTransaction`, so each rule that must hold
/// atomically (a code consumed together with the account change it causes) commits or rolls back whole.
package protocol LinkStore: Sendable {
    /// Runs `body` in one write transaction; a thrown error rolls everything back.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Runs `body` on a read-only snapshot, concurrently with writes.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T

    /// Leases up to `limit` messages that are due, so no other worker takes them until `leaseUntil`.
    func claimOutboxMessages(now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxMessage]
    /// Ends the lease of messages that were claimed but not attempted.
    func releaseOutboxMessages(ids: [Int64]) async throws
    /// Marks a message delivered and drops its sealed content.
    func markDelivered(outboxID: Int64, at: Date) async throws
    /// Records a failed attempt; the message is tried again at `retryAt`, or never when it is `nil`.
    func recordDeliveryFailure(outboxID: Int64, error: String, retryAt: Date?) async throws

    /// Messages not yet delivered, oldest first, for operators.
    func undeliveredMessages(limit: Int) async throws -> [OutboxStatus]
    /// Puts every given-up message back in the queue, due at `now`; returns how many.
    func retryFailedMessages(now: Date) async throws -> Int
    /// How many messages wait for delivery and how long the oldest has waited at `now`.
    func outboxBacklog(now: Date) async throws -> OutboxBacklog
    /// The newest `limit` audit events about `email`: those naming it and those of any account that had it.
    func auditEvents(email: EmailAddress, limit: Int) async throws -> [AuditEvent]
}

/// What an operator sees of one undelivered message: never its content.
package struct OutboxStatus: Sendable, Equatable {
    package var id: Int64
    package var recipient: EmailAddress
    package var isFailed: Bool
    package var attempts: Int
    package var createdAt: Date
    package var nextAttemptAt: Date
    package var lastError: String?
}

/// The attempts counted in one open rate-limit window, and when it ends (Unix seconds).
package struct RateWindow: Sendable, Equatable {
    package var count: Int
    package var endsAt: Int
}

/// The operations available inside one write transaction.
package protocol StoreTransaction {
    func insert(_ request: PendingRequest) throws
    /// Drops the oldest unused requests for `email` beyond the newest `count`.
    func dropOutstandingRequests(for email: EmailAddress, keepingNewest count: Int) throws
    func pendingRequest(codeHash: Data) throws -> PendingRequest?
    /// The single conditional UPDATE that makes a code single-use: true only for the one caller that
    /// finds it unused, unexpired and not killed by mismatches.
    func consumePendingRequest(id: Int64, at now: Date) throws -> Bool
    func recordMismatch(pendingRequestID: Int64) throws

    func account(email: EmailAddress) throws -> Account?
    func account(id: String) throws -> Account?
    func insert(_ account: Account) throws
    func update(_ account: Account) throws
    /// Deletes the account and revokes its sessions (kept a while, so a refresh answers `USER_NOT_FOUND`).
    func deleteAccount(id: String, at now: Date) throws

    func insert(_ session: SessionRecord) throws
    func session(id: String) throws -> SessionRecord?
    /// Revokes one session (a replayed refresh token).
    func revokeSession(id: String, at now: Date) throws
    /// Revokes every session of the account (a takeover strip, a revocation, a password change).
    func revokeSessions(accountID: String, at now: Date) throws

    func insert(_ token: RefreshToken) throws
    func refreshToken(hash: Data) throws -> RefreshToken?
    /// True only for the one caller that rotates a token that was not rotated yet.
    func markRotated(refreshTokenID: Int64, at now: Date) throws -> Bool

    func enqueue(_ message: OutboxMessage) throws

    /// The window of `key` still open at `now` (Unix seconds), or nil when none is.
    func rateWindow(key: String, at now: Int) throws -> RateWindow?
    /// Counts one attempt in the open window of `key`, or opens a window of `windowSeconds` at `now`.
    func countRateAttempt(key: String, at now: Int, windowSeconds: Int) throws

    func record(_ event: AuditEvent) throws

    /// Deletes at most `limit` rows of `rows` whose time ended before `cutoff`; returns how many.
    func deleteExpired(_ rows: ExpiringRows, before cutoff: Date, limit: Int) throws -> Int
}
