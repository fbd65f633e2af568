import Foundation

/// One refresh token as stored: its keyed hash, the account, and the rotation chain it belongs to.
///
/// Every use replaces the token with a new one in the same chain; a token used twice means it was
/// copied, and the whole chain is revoked.
package struct RefreshToken: Sendable, Equatable {
    package var id: Int64?
    package var tokenHash: Data
    package var accountID: String
    package var chainID: String
    /// When the user last proved control of the email; carried along the chain into `auth_time`.
    package var authTime: Date
    package var createdAt: Date
    package var rotatedAt: Date?
    package var revokedAt: Date?
    /// Revoked because the account's sessions were ended, not because the token was replayed.
    package var isRevokedWithAccount: Bool

    package init(
        id: Int64? = nil, tokenHash: Data, accountID: String, chainID: String, authTime: Date, createdAt: Date,
        rotatedAt: Date? = nil, revokedAt: Date? = nil, isRevokedWithAccount: Bool = false
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.accountID = accountID
        self.chainID = chainID
        self.authTime = authTime
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
        self.isRevokedWithAccount = isRevokedWithAccount
    }
}
