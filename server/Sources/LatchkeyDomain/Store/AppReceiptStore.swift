import Foundation

/// The receipts `accounts:verifyClient` hands out (`AppReceipt`), each claimed at most once by the send it proves.
package protocol AppReceiptStore {
    func insert(_ receipt: AppReceipt) async throws
    /// Deletes the receipt of `receiptHash` if its secret's hash is `secretHash` and it is unexpired at `now`, and says
    /// whether it did: one conditional statement, so that of two sends presenting one receipt only one is admitted. A
    /// wrong secret leaves the receipt as it was.
    func claimAppReceipt(receiptHash: Data, secretHash: Data, at now: Date) async throws -> Bool
}
