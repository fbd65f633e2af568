import Foundation

/// One refresh token as stored: its keyed hash and the session (rotation chain) it belongs to.
///
/// Every use replaces the token with a new one in the same session; a token used twice means it was copied, and the
/// session is revoked. Revocation lives on the session (`SessionRecord`), not on its tokens.
package struct RefreshToken: Sendable, Equatable {
    package var id: Int64?
    package var tokenHash: Data
    package var sessionID: String
    package var createdAt: Date
    package var rotatedAt: Date?

    package init(id: Int64? = nil, tokenHash: Data, sessionID: String, createdAt: Date, rotatedAt: Date? = nil) {
        self.id = id
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
    }
}
