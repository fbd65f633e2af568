import Foundation

/// An enrollment started (`mfaEnrollment:start`) and waiting for the first code from the authenticator app: found by
/// the keyed hash of its `sessionInfo`, holding the secret sealed. A wrong code leaves it waiting; a right one ends it.
package struct PendingEnrollment: Sendable, Equatable {
    package var sessionHash: Data
    package var accountID: String
    package var sealedSecret: Data
    package var expiresAt: Date

    package init(sessionHash: Data, accountID: String, sealedSecret: Data, expiresAt: Date) {
        self.sessionHash = sessionHash
        self.accountID = accountID
        self.sealedSecret = sealedSecret
        self.expiresAt = expiresAt
    }
}
