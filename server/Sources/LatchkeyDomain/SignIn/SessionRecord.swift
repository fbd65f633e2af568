import Foundation

/// One signed-in session as stored: one row per refresh chain, with the account, how it signed in, and whether it
/// was revoked. Revoking a session is one write and checking it one lookup, whatever the length of its chain.
package struct SessionRecord: Sendable, Equatable {
    /// The `sid` of its ID tokens and the chain of its refresh tokens.
    package var id: String
    package var accountID: String
    /// Firebase's `sign_in_provider`, fixed when the session signs in: a refresh never derives it from the account.
    package var signInProvider: SignInProvider
    /// The second factor the session passed, if it passed one; its tokens say so.
    package var secondFactor: PassedSecondFactor?
    /// The claims of the custom token that opened the session (its `claims`), which every ID token of the session
    /// carries, through refreshes, as Firebase's do.
    package var developerClaims: CustomClaims?
    /// When the user signed in; carried through every refresh into `auth_time`.
    package var authTime: Date
    package var createdAt: Date
    package var revokedAt: Date?
    /// Revoked because the account's sessions were ended (a refresh answers `TOKEN_EXPIRED`), not because a refresh
    /// token was replayed (`INVALID_REFRESH_TOKEN`).
    package var isRevokedWithAccount: Bool

    package init(
        id: String, accountID: String, signInProvider: SignInProvider, secondFactor: PassedSecondFactor? = nil, developerClaims: CustomClaims? = nil,
        authTime: Date, createdAt: Date, revokedAt: Date? = nil, isRevokedWithAccount: Bool = false
    ) {
        self.id = id
        self.accountID = accountID
        self.signInProvider = signInProvider
        self.secondFactor = secondFactor
        self.developerClaims = developerClaims
        self.authTime = authTime
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.isRevokedWithAccount = isRevokedWithAccount
    }

    /// A new session's id: the milliseconds of `now` in twelve hex digits, then 16 bytes from the CSPRNG. Ids that sort
    /// by time make every new session, and its refresh tokens' index entry, land on the rightmost page of their B-tree
    /// instead of a random one (a random page is a page more to write per sign-in). The time they show is the
    /// session's `auth_time`, which its ID tokens carry anyway.
    package static func makeID(at now: Date) -> String {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let prefix = String(milliseconds, radix: 16)
        return String(repeating: "0", count: max(0, 12 - prefix.count)) + prefix + ServerSecret.makeToken(bytes: 16)
    }
}

/// How a session signed in, by Firebase's provider id (`firebase.sign_in_provider`).
package struct SignInProvider: Sendable, Hashable, CustomStringConvertible {
    package let id: String

    package init(id: String) {
        self.id = id
    }

    /// A password, and an email link too: Firebase files email-link sign-in under the password provider.
    package static let password = SignInProvider(id: "password")
    package static let anonymous = SignInProvider(id: "anonymous")
    /// A custom token minted by the app's backend.
    package static let custom = SignInProvider(id: "custom")
    /// A code texted to the account's number.
    package static let phone = SignInProvider(id: "phone")

    package var description: String { id }

    /// The name people know the provider by, for mail: the brand of a built-in one, the id of any other.
    package var brandName: String {
        ["google.com": "Google", "apple.com": "Apple", "facebook.com": "Facebook", "yahoo.com": "Yahoo"][id] ?? id
    }
}
