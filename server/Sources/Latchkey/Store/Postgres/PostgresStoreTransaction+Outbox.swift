import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    /// A new message is due at once by the database's clock too: an instance whose host clock runs ahead would otherwise
    /// queue it for a time the claims, judged by the database, only reach later.
    func enqueue(_ message: OutboxMessage) async throws {
        let created = message.createdAt.timeIntervalSince1970
        try await execute(
            """
            INSERT INTO outbox (recipient, format, sealed_message, created_at, next_attempt_at)
            VALUES (\(message.recipient.value), \(message.format.rawValue), \(message.sealedContent), \(created),
                LEAST(\(created), extract(epoch FROM clock_timestamp())::float8))
            """)
    }

    /// The database's clock, which every instance sharing the store reads alike; `clock_timestamp()` rather than
    /// `now()`, which stands still at the transaction's start.
    func outboxNow(hostNow: Date) async throws -> Date {
        guard let seconds = try await row("SELECT extract(epoch FROM clock_timestamp())::float8 AS now")?["now"].decode(Double.self) else {
            throw StoreUnavailable("PostgreSQL did not tell the time")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `SKIP LOCKED`: a row another instance is claiming right now is left to it, never waited for nor taken twice.
    func claimOutboxMessages(now: Date, leaseUntil: Date, limit: Int) async throws -> [ClaimedMessage] {
        let token = ServerSecret.makeToken(bytes: 16)
        let seconds = now.timeIntervalSince1970
        return try await rows(
            """
            UPDATE outbox SET lease_until = \(leaseUntil.timeIntervalSince1970), attempts = attempts + 1, claim_token = \(token)
            WHERE id IN (
                SELECT id FROM outbox
                WHERE status = 'pending' AND next_attempt_at <= \(seconds) AND (lease_until IS NULL OR lease_until <= \(seconds))
                ORDER BY next_attempt_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING id, recipient, format, sealed_message, created_at, attempts
            """
        ).compactMap { row -> ClaimedMessage? in
            let id = try row["id"].decode(Int64.self)
            guard let format = OutboxMessage.Format(rawValue: try row["format"].decode(String.self)),
                let recipient = OutboxRecipient(stored: try row["recipient"].decode(String.self), format: format),
                let sealed = try row["sealed_message"].decode(Data?.self)
            else { return nil }
            let message = OutboxMessage(
                id: id, recipient: recipient, format: format, sealedContent: sealed,
                createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)), attempts: try row["attempts"].decode(Int.self))
            return ClaimedMessage(message: message, claim: OutboxClaim(messageID: id, token: token))
        }
    }

    func releaseOutboxMessages(_ claims: [OutboxClaim]) async throws {
        for claim in claims {
            try await execute(
                """
                UPDATE outbox SET lease_until = NULL, claim_token = NULL, attempts = attempts - 1
                WHERE id = \(claim.messageID) AND claim_token = \(claim.token) AND status = 'pending'
                """)
        }
    }

    func markDelivered(_ claim: OutboxClaim, at now: Date) async throws -> Bool {
        try await row(
            """
            UPDATE outbox SET status = 'sent', sent_at = \(now.timeIntervalSince1970), sealed_message = NULL, lease_until = NULL, claim_token = NULL,
                last_error = NULL
            WHERE id = \(claim.messageID) AND claim_token = \(claim.token)
            RETURNING 1
            """) != nil
    }

    func recordDeliveryFailure(_ claim: OutboxClaim, error: String, retryAt: Date?) async throws -> Bool {
        if let retryAt {
            return try await row(
                """
                UPDATE outbox SET next_attempt_at = \(retryAt.timeIntervalSince1970), lease_until = NULL, claim_token = NULL, last_error = \(error)
                WHERE id = \(claim.messageID) AND claim_token = \(claim.token) RETURNING 1
                """) != nil
        }
        return try await row(
            """
            UPDATE outbox SET status = 'failed', lease_until = NULL, claim_token = NULL, last_error = \(error)
            WHERE id = \(claim.messageID) AND claim_token = \(claim.token) RETURNING 1
            """) != nil
    }

    func undeliveredMessages(limit: Int) async throws -> [OutboxStatus] {
        try await rows(
            """
            SELECT id, recipient, format, status, attempts, created_at, next_attempt_at, last_error FROM outbox
            WHERE status <> 'sent' ORDER BY created_at, id LIMIT \(limit)
            """
        ).compactMap { row -> OutboxStatus? in
            guard let format = OutboxMessage.Format(rawValue: try row["format"].decode(String.self)),
                let recipient = OutboxRecipient(stored: try row["recipient"].decode(String.self), format: format)
            else { return nil }
            return OutboxStatus(
                id: try row["id"].decode(Int64.self), recipient: recipient, isFailed: try row["status"].decode(String.self) == "failed",
                attempts: try row["attempts"].decode(Int.self), createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
                nextAttemptAt: Date(timeIntervalSince1970: try row["next_attempt_at"].decode(Double.self)),
                lastError: try row["last_error"].decode(String?.self))
        }
    }

    func retryFailedMessages(now: Date) async throws -> Int {
        try await rows(
            """
            UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = \(now.timeIntervalSince1970), lease_until = NULL
            WHERE status = 'failed' RETURNING 1
            """
        ).count
    }

    func outboxBacklog(now: Date) async throws -> OutboxBacklog {
        let row = try await row("SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'")
        let oldest = try row?["oldest"].decode(Double?.self)
        return OutboxBacklog(
            count: Int(try row?["depth"].decode(Int64.self) ?? 0), oldestAge: oldest.map { max(0, now.timeIntervalSince1970 - $0) } ?? 0)
    }
}
