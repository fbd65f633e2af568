import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func insert(_ verification: PhoneVerification) async throws {
        try await execute(
            """
            INSERT INTO phone_verifications (session_hash, purpose, phone_number, code_hash, account_id, factor_id, attempts, created_at, expires_at)
            VALUES (\(verification.sessionHash), \(verification.purpose.rawValue), \(verification.phoneNumber.value), \(verification.codeHash),
                \(verification.accountID), \(verification.factorID), \(verification.attempts), \(verification.createdAt.timeIntervalSince1970),
                \(verification.expiresAt.timeIntervalSince1970))
            """)
    }

    func claimPhoneVerificationAttempt(sessionHash: Data, purpose: PhoneVerification.Purpose) async throws -> PhoneVerification? {
        try await row(
            """
            UPDATE phone_verifications SET attempts = attempts + 1
            WHERE session_hash = \(sessionHash) AND purpose = \(purpose.rawValue) AND attempts < \(PhoneVerification.maximumAttempts)
            RETURNING *
            """
        ).flatMap(Self.phoneVerification(from:))
    }

    func deletePhoneVerification(sessionHash: Data) async throws -> Bool {
        try await row("DELETE FROM phone_verifications WHERE session_hash = \(sessionHash) RETURNING 1") != nil
    }

    /// A stored verification; a number stored before the rules it no longer passes reads as none.
    private static func phoneVerification(from row: PostgresRandomAccessRow) throws -> PhoneVerification? {
        guard let purpose = PhoneVerification.Purpose(rawValue: try row["purpose"].decode(String.self)),
            let number = PhoneNumber(try row["phone_number"].decode(String.self))
        else { return nil }
        return PhoneVerification(
            sessionHash: try row["session_hash"].decode(Data.self), purpose: purpose, phoneNumber: number,
            codeHash: try row["code_hash"].decode(Data?.self), accountID: try row["account_id"].decode(String?.self),
            factorID: try row["factor_id"].decode(String?.self), attempts: try row["attempts"].decode(Int.self),
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
            expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)))
    }
}
