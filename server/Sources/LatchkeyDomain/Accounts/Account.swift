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
    /// Claims an admin gave the account, which its ID tokens carry (Firebase's custom claims).
    package var customClaims: CustomClaims?
    /// The number that signs in with a texted code (Firebase's `phoneNumber`): one account per number.
    package var phoneNumber: PhoneNumber?

    package init(
        id: String, email: EmailAddress?, isEmailVerified: Bool, passwordHash: String? = nil, isDisabled: Bool = false,
        validSince: Date, createdAt: Date, lastSignInAt: Date? = nil, displayName: String? = nil, photoURL: String? = nil,
        customClaims: CustomClaims? = nil, phoneNumber: PhoneNumber? = nil
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
        self.customClaims = customClaims
        self.phoneNumber = phoneNumber
    }

    /// A new account with `email` (none for an anonymous one), valid from `now`; `id` is an admin's choice or a new one.
    static func new(id: String? = nil, email: EmailAddress?, at now: Date) -> Account {
        Account(id: id ?? makeID(at: now), email: email, isEmailVerified: false, validSince: now.wholeSeconds, createdAt: now)
    }

    /// A new account's Firebase-shaped local id, 28 letters and digits that sort by creation: its `CreationSecond`, then
    /// 21 random (125 bits), so new accounts land at the end of every index keyed by account (accounts, identities,
    /// sessions, audit events). An id says when its account was made, as its `createdAt` does to whoever may read it.
    package static func makeID(at now: Date) -> String {
        CreationSecond.base36(now) + makeID(length: 28 - CreationSecond.length)
    }

    /// A Firebase-shaped id of another record (a second factor's): 28 random letters and digits.
    package static func makeID() -> String {
        makeID(length: 28)
    }

    /// `length` letters and digits from the CSPRNG, drawn a batch of bytes at a time (one system call per batch, not
    /// per letter: ids are made on the store's writer thread). A byte picks a letter only below 248, the largest
    /// multiple of 62 a byte holds, so every letter is equally likely.
    private static func makeID(length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let unbiased = UInt8(256 / alphabet.count * alphabet.count - 1)
        var id: [UInt8] = []
        id.reserveCapacity(length)
        while id.count < length {
            for byte in ServerSecret.randomBytes(32) where byte <= unbiased && id.count < length {
                id.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: id, as: UTF8.self)
    }
}
