import Foundation

/// A user of the project, found or created when an email link is completed; anonymous until it has an email.
package struct Account: Sendable, Equatable {
    package var id: String
    package var email: EmailAddress?
    package var isEmailVerified: Bool
    package var passwordHash: String?
    package var isDisabled: Bool
    /// Tokens issued before this instant no longer count (Firebase's `validSince`).
    package var validSince: Date
    package var createdAt: Date
    package var lastSignInAt: Date?
    package var displayName: String?
    package var photoURL: String?

    package init(
        id: String, email: EmailAddress?, isEmailVerified: Bool, passwordHash: String? = nil, isDisabled: Bool = false,
        validSince: Date, createdAt: Date, lastSignInAt: Date? = nil, displayName: String? = nil, photoURL: String? = nil
    ) {
        self.id = id
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.passwordHash = passwordHash
        self.isDisabled = isDisabled
        self.validSince = validSince
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.displayName = displayName
        self.photoURL = photoURL
    }

    /// A new account with `email` (none for an anonymous one), valid from `now`; `id` is an admin's choice or a new one.
    static func new(id: String? = nil, email: EmailAddress?, at now: Date) -> Account {
        Account(id: id ?? makeID(), email: email, isEmailVerified: false, validSince: now.wholeSeconds, createdAt: now)
    }

    /// A Firebase-shaped local id: 28 letters and digits from the CSPRNG.
    package static func makeID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<28).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
