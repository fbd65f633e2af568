import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func enqueue(_ message: OutboxMessage) async throws {
        try execute(
            sql: "INSERT INTO outbox (recipient, format, sealed_message, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                message.recipient.value, message.format.rawValue, message.sealedContent, message.createdAt.timeIntervalSince1970,
                message.createdAt.timeIntervalSince1970,
            ])
    }

    /// One machine holds a SQLite store, so its host clock is the only clock there is.
    func outboxNow(hostNow: Date) async throws -> Date { hostNow }

    func claimOutboxMessages(now: Date, leaseUntil: Date, limit: Int) async throws -> [ClaimedMessage] {
        let token = ServerSecret.makeToken(bytes: 16)
        return try rows(
            sql: """
                UPDATE outbox SET lease_until = ?, attempts = attempts + 1, claim_token = ?
                WHERE id IN (
                    SELECT id FROM outbox
                    WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                    ORDER BY next_attempt_at LIMIT ?)
                RETURNING id, recipient, format, sealed_message, created_at, attempts
                """,
            arguments: [leaseUntil.timeIntervalSince1970, token, now.timeIntervalSince1970, now.timeIntervalSince1970, limit]
        ).compactMap { row -> ClaimedMessage? in
            guard let format = OutboxMessage.Format(rawValue: row["format"]),
                let recipient = OutboxRecipient(stored: row["recipient"], format: format), let sealed: Data = row["sealed_message"]
            else { return nil }
            let message = OutboxMessage(
                id: row["id"], recipient: recipient, format: format, sealedContent: sealed, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                attempts: row["attempts"])
            return ClaimedMessage(message: message, claim: OutboxClaim(messageID: row["id"], token: token))
        }
    }

    func releaseOutboxMessages(_ claims: [OutboxClaim]) async throws {
        for claim in claims {
            try execute(
                sql: """
                    UPDATE outbox SET lease_until = NULL, claim_token = NULL, attempts = attempts - 1
                    WHERE id = ? AND claim_token = ? AND status = 'pending'
                    """,
                arguments: [claim.messageID, claim.token])
        }
    }

    func markDelivered(_ claim: OutboxClaim, at now: Date) async throws -> Bool {
        try execute(
            sql: """
                UPDATE outbox SET status = 'sent', sent_at = ?, sealed_message = NULL, lease_until = NULL, claim_token = NULL, last_error = NULL
                WHERE id = ? AND claim_token = ?
                """,
            arguments: [now.timeIntervalSince1970, claim.messageID, claim.token])
        return db.changesCount == 1
    }

    func recordDeliveryFailure(_ claim: OutboxClaim, error: String, retryAt: Date?) async throws -> Bool {
        if let retryAt {
            try execute(
                sql: "UPDATE outbox SET next_attempt_at = ?, lease_until = NULL, claim_token = NULL, last_error = ? WHERE id = ? AND claim_token = ?",
                arguments: [retryAt.timeIntervalSince1970, error, claim.messageID, claim.token])
        } else {
            try execute(
                sql: "UPDATE outbox SET status = 'failed', lease_until = NULL, claim_token = NULL, last_error = ? WHERE id = ? AND claim_token = ?",
                arguments: [error, claim.messageID, claim.token])
        }
        return db.changesCount == 1
    }

    func undeliveredMessages(limit: Int) async throws -> [OutboxStatus] {
        try rows(
            sql: """
                SELECT id, recipient, format, status, attempts, created_at, next_attempt_at, last_error FROM outbox
                WHERE status != 'sent' ORDER BY created_at LIMIT ?
                """,
            arguments: [limit]
        ).compactMap { row -> OutboxStatus? in
            guard let format = OutboxMessage.Format(rawValue: row["format"]),
                let recipient = OutboxRecipient(stored: row["recipient"], format: format)
            else { return nil }
            return OutboxStatus(
                id: row["id"], recipient: recipient, isFailed: (row["status"] as String?) == "failed", attempts: row["attempts"],
                createdAt: Date(timeIntervalSince1970: row["created_at"]), nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
                lastError: row["last_error"])
        }
    }

    func retryFailedMessages(now: Date) async throws -> Int {
        try execute(
            sql: "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL WHERE status = 'failed'",
            arguments: [now.timeIntervalSince1970])
        return db.changesCount
    }

    func outboxBacklog(now: Date) async throws -> OutboxBacklog {
        let row = try row(sql: "SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'", arguments: [])
        let oldest: Double? = row?["oldest"]
        return OutboxBacklog(count: row?["depth"] ?? 0, oldestAge: oldest.map { max(0, now.timeIntervalSince1970 - $0) } ?? 0)
    }
}
