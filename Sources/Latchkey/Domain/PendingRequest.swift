import Foundation

/// A sign-in link that was asked for and mailed, waiting for the user to come back with its code.
///
/// Only the keyed hash of the code is kept; the code itself lives in the email alone.
package struct PendingRequest: Sendable {
    package var id: Int64?
    package var codeHash: Data
    package var email: EmailAddress
    package var createdAt: Date
    package var expiresAt: Date
    package var language: LanguageTag
    package var continueURL: String
    package var usedAt: Date?
    package var mismatchCount: Int

    /// A wrong email this many times and the code is dead, so the code cannot be paired with guessed addresses.
    package static let maximumMismatches = 5

    package init(
        id: Int64? = nil, codeHash: Data, email: EmailAddress, createdAt: Date, expiresAt: Date, language: LanguageTag,
        continueURL: String, usedAt: Date? = nil, mismatchCount: Int = 0
    ) {
        self.id = id
        self.codeHash = codeHash
        self.email = email
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.language = language
        self.continueURL = continueURL
        self.usedAt = usedAt
        self.mismatchCount = mismatchCount
    }

    package func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Used, or killed by too many wrong emails: either way the code no longer exists for the caller.
    package var isSpent: Bool { usedAt != nil || mismatchCount >= Self.maximumMismatches }
}
