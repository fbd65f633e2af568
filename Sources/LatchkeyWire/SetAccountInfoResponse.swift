/// Firebase's answer to `accounts:update` and to an admin's account creation: the account after the change.
public struct SetAccountInfoResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#SetAccountInfoResponse"
    public var localId: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoUrl: String?
    /// Present, and always redacted, when the account has a password.
    public var passwordHash: String?
    public var providerUserInfo: [ProviderUserInfo]
    /// Only after a user changed their own password.
    public var idToken: String?
    /// Only after a user changed their own password.
    public var refreshToken: String?
    /// Only after a user changed their own password; seconds, as a decimal string.
    public var expiresIn: String?

    public init(
        localId: String, email: String? = nil, emailVerified: Bool, displayName: String? = nil, photoUrl: String? = nil,
        passwordHash: String? = nil, providerUserInfo: [ProviderUserInfo], idToken: String? = nil, refreshToken: String? = nil,
        expiresIn: String? = nil
    ) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.passwordHash = passwordHash
        self.providerUserInfo = providerUserInfo
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
