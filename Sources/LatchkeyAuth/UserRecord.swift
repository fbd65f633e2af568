import Foundation
import LatchkeyWire

/// Everything the library keeps about the signed-in user, as persisted between launches.
struct UserRecord: Codable, Sendable, Equatable, CustomReflectable {
    var uid: String
    var email: String?
    /// The number the account signs in with (E.164); `nil` in what earlier versions stored.
    var phoneNumber: String?
    var isEmailVerified: Bool
    var isAnonymous: Bool
    var displayName: String?
    var photoURL: String?
    var providerData: [UserInfo]
    var creationDate: Date?
    var lastSignInDate: Date?
    var enrolledFactors: [EnrolledFactor]
    /// Whether the account has a password (the `password` provider alone may mean email links).
    var hasPassword: Bool
    var tokens: TokenSet
    /// The service the session belongs to, set when it is stored; `nil` in what earlier versions stored, which is
    /// not adopted, as nothing says where its refresh token may go.
    var service: ServiceIdentity?

    /// `dump` shows the user, never the tokens.
    var customMirror: Mirror { Mirror(self, children: ["uid": uid, "email": email as Any]) }

    /// The account as `accounts:lookup` describes it, with `tokens`.
    init(_ account: LatchkeyWire.UserInfo, tokens: TokenSet) {
        uid = account.localId
        email = account.email
        phoneNumber = account.phoneNumber
        isEmailVerified = account.emailVerified
        displayName = account.displayName
        photoURL = account.photoUrl
        providerData = account.providerUserInfo.map(UserInfo.init)
        hasPassword = account.passwordHash != nil
        // An account with no address, password or provider is what `signInAnonymously` made.
        isAnonymous = account.email == nil && account.providerUserInfo.isEmpty && !hasPassword
        creationDate = Self.date(milliseconds: account.createdAt)
        lastSignInDate = account.lastLoginAt.flatMap(Self.date(milliseconds:))
        enrolledFactors = (account.mfaInfo ?? []).map(EnrolledFactor.init)
        self.tokens = tokens
    }

    private static func date(milliseconds: String) -> Date? {
        Int64(milliseconds).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }
}

/// A session's tokens: the short-lived ID token and the refresh token that renews it.
struct TokenSet: Codable, Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    var idToken: String
    var expirationDate: Date
    var refreshToken: String

    /// Its expiry is counted on this device's clock from when the answer arrived: the token's lifetime (`expiresIn`,
    /// else its `exp` minus `iat`), never its `exp` against a device clock that may be off.
    init(idToken: String, refreshToken: String, expiresIn: String?, now: Date = Date()) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        let token = try? IDTokenResult(token: idToken)
        let lifetime = expiresIn.flatMap(TimeInterval.init) ?? token.map { $0.expirationDate.timeIntervalSince($0.issuedAtDate) } ?? 0
        expirationDate = now.addingTimeInterval(lifetime)
    }

    /// Never shows a token, nor does `dump`.
    var description: String { "TokenSet(expires \(expirationDate))" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
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
