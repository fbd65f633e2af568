import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func insert(_ receipt: AppReceipt) async throws {
        try await execute(
            """
            INSERT INTO app_receipts (receipt_hash, secret_hash, expires_at)
            VALUES (\(receipt.receiptHash), \(receipt.secretHash), \(receipt.expiresAt.timeIntervalSince1970))
            """)
    }

    func claimAppReceipt(receiptHash: Data, secretHash: Data, at now: Date) async throws -> Bool {
        let claimed = try await rows(
            """
            DELETE FROM app_receipts WHERE receipt_hash = \(receiptHash) AND secret_hash = \(secretHash)
                AND expires_at > \(now.timeIntervalSince1970) RETURNING 1
            """)
        return claimed.count == 1
    }
}
