/// Firebase's `UserInfo`: one account as `accounts:lookup` describes it. Times are decimal strings, as in Google's
/// JSON mapping of int64: `createdAt` and `lastLoginAt` in milliseconds, `validSince` in seconds since 1970.
public struct UserInfo: Sendable, Codable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool
    /// The account's number in E.164, when it has one.
    public var phoneNumber: String?
    public var displayName: String?
    public var photoUrl: String?
    /// Present, and always redacted, when the account has a password.
    public var passwordHash: String?
    public var providerUserInfo: [ProviderUserInfo]
    public var validSince: String
    /// Present only for a disabled account.
    public var disabled: Bool?
    public var createdAt: String
    public var lastLoginAt: String?
    /// Present only for an account that signs in by email link.
    public var emailLinkSignin: Bool?
    /// The account's second factors; absent when it has none.
    public var mfaInfo: [MfaEnrollment]?
    /// Custom claims, a JSON object in a string; absent when there are none.
    public var customAttributes: String?

    public init(
        localId: String, email: String? = nil, emailVerified: Bool, displayName: String? = nil, photoUrl: String? = nil,
        passwordHash: String? = nil, providerUserInfo: [ProviderUserInfo], validSince: String, disabled: Bool? = nil, createdAt: String,
        lastLoginAt: String? = nil, emailLinkSignin: Bool? = nil, mfaInfo: [MfaEnrollment]? = nil, customAttributes: String? = nil,
        phoneNumber: String? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.mfaInfo = mfaInfo
        self.customAttributes = customAttributes
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.passwordHash = passwordHash
        self.providerUserInfo = providerUserInfo
        self.validSince = validSince
        self.disabled = disabled
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.emailLinkSignin = emailLinkSignin
    }
}
