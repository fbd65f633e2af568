import Foundation
import LatchkeyWire

/// Everything the library keeps about the signed-in user, as persisted between launches.
struct UserRecord: Codable, Sendable, Equatable {
    var uid: String
    var email: String?
    var isEmailVerified: Bool
    var isAnonymous: Bool
    var displayName: String?
    var photoURL: String?
    var providerData: [UserInfo]
    var creationDate: Date?
    var lastSignInDate: Date?
    var enrolledFactors: [MultiFactorInfo]
    var tokens: TokenSet

    /// The account as `accounts:lookup` describes it, with `tokens`.
    init(_ account: LatchkeyWire.UserInfo, tokens: TokenSet) {
        uid = account.localId
        email = account.email
        isEmailVerified = account.emailVerified
        displayName = account.displayName
        photoURL = account.photoUrl
        providerData = account.providerUserInfo.map(UserInfo.init)
        // An account with no address, password or provider is what `signInAnonymously` made.
        isAnonymous = account.email == nil && account.providerUserInfo.isEmpty && account.passwordHash == nil
        creationDate = Self.date(milliseconds: account.createdAt)
        lastSignInDate = account.lastLoginAt.flatMap(Self.date(milliseconds:))
        enrolledFactors = (account.mfaInfo ?? []).map(MultiFactorInfo.init)
        self.tokens = tokens
    }

    private static func date(milliseconds: String) -> Date? {
        Int64(milliseconds).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }
}

/// A session's tokens: the short-lived ID token and the refresh token that renews it.
struct TokenSet: Codable, Sendable, Equatable, CustomStringConvertible {
    var idToken: String
    var expirationDate: Date
    var refreshToken: String

    /// The ID token's own `exp` claim says when it expires; `expiresIn` (its lifetime in seconds, when the answer has
    /// one) stands in for a token that cannot be read.
    init(idToken: String, refreshToken: String, expiresIn: String?, now: Date = Date()) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        expirationDate = (try? IDTokenResult(token: idToken).expirationDate)
            ?? now.addingTimeInterval(expiresIn.flatMap(TimeInterval.init) ?? 0)
    }

    /// Never shows a token.
    var description: String { "TokenSet(expires \(expirationDate))" }
}

/// One way the user signs in (Firebase's `UserInfo`): an identity provider's account, or `password`.
public struct UserInfo: Codable, Sendable, Equatable {
    public let providerID: String
    /// The user's id at the provider.
    public let uid: String
    public let email: String?
    public let displayName: String?
    public let photoURL: String?

    init(_ provider: ProviderUserInfo) {
        providerID = provider.providerId
        uid = provider.rawId
        email = provider.email
        displayName = provider.displayName
        photoURL = provider.photoUrl
    }
}

/// When the account was made and last signed in (Firebase's `UserMetadata`).
public struct UserMetadata: Sendable, Equatable {
    public let creationDate: Date?
    public let lastSignInDate: Date?
}
