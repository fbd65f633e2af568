import Foundation

/// A receipt `accounts:verifyClient` handed out, as the store keeps it: only the keyed hashes of the receipt and of the
/// secret the silent push carried, so that a copy of the database proves nothing.
package struct AppReceipt: Sendable, Equatable {
    package var receiptHash: Data
    package var secretHash: Data
    package var expiresAt: Date

    package init(receiptHash: Data, secretHash: Data, expiresAt: Date) {
        self.receiptHash = receiptHash
        self.secretHash = secretHash
        self.expiresAt = expiresAt
    }
}
