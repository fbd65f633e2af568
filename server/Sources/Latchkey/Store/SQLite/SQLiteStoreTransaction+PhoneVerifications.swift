import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func insert(_ verification: PhoneVerification) async throws {
        try execute(
            sql: """
                INSERT INTO phone_verifications (session_hash, purpose, phone_number, code_hash, account_id, factor_id, attempts, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                verification.sessionHash, verification.purpose.rawValue, verification.phoneNumber.value, verification.codeHash, verification.accountID,
                verification.factorID, verification.attempts, verification.createdAt.timeIntervalSince1970, verification.expiresAt.timeIntervalSince1970,
            ])
    }

    func claimPhoneVerificationAttempt(sessionHash: Data, purpose: PhoneVerification.Purpose) async throws -> PhoneVerification? {
        try row(
            sql: """
                UPDATE phone_verifications SET attempts = attempts + 1
                WHERE session_hash = ? AND purpose = ? AND attempts < ?
                RETURNING *
                """,
            arguments: [sessionHash, purpose.rawValue, PhoneVerification.maximumAttempts]
        ).flatMap(Self.phoneVerification(from:))
    }

    func deletePhoneVerification(sessionHash: Data) async throws -> Bool {
        try execute(sql: "DELETE FROM phone_verifications WHERE session_hash = ?", arguments: [sessionHash])
        return db.changesCount == 1
    }

    /// A stored verification; a number stored before the rules it no longer passes reads as none.
    private static func phoneVerification(from row: Row) -> PhoneVerification? {
        guard let purpose = PhoneVerification.Purpose(rawValue: row["purpose"]), let number = PhoneNumber(row["phone_number"]) else { return nil }
        return PhoneVerification(
            sessionHash: row["session_hash"], purpose: purpose, phoneNumber: number, codeHash: row["code_hash"], accountID: row["account_id"],
            factorID: row["factor_id"], attempts: row["attempts"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }
}
