import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func insert(_ receipt: AppReceipt) async throws {
        try execute(
            sql: "INSERT INTO app_receipts (receipt_hash, secret_hash, expires_at) VALUES (?, ?, ?)",
            arguments: [receipt.receiptHash, receipt.secretHash, receipt.expiresAt.timeIntervalSince1970])
    }

    func claimAppReceipt(receiptHash: Data, secretHash: Data, at now: Date) async throws -> Bool {
        try execute(
            sql: "DELETE FROM app_receipts WHERE receipt_hash = ? AND secret_hash = ? AND expires_at > ?",
            arguments: [receiptHash, secretHash, now.timeIntervalSince1970])
        return db.changesCount == 1
    }
}
