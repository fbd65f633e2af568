/// Firebase's `SetAccountInfoRequest` (`accounts:update`): changes by the signed-in user, or by an admin.
public struct SetAccountInfoRequest: Sendable, Codable, Equatable {
    /// Present (even null) means the user's own account, for admins too.
    public var idToken: String?
    /// Admin only.
    public var localId: String?
    /// An emailed verification, address change or undo code to apply (Firebase's `applyActionCode`); nothing else is read.
    public var oobCode: String?
    /// Present (even null) asks for a new address.
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoUrl: String?
    /// `DISPLAY_NAME`, `PHOTO_URL`.
    public var deleteAttribute: [String]?
    /// `password` removes the password.
    public var deleteProvider: [String]?
    /// Seconds since 1970: tokens issued before are refused.
    public var validSince: Int64?
    /// Admin only.
    public var disableUser: Bool?
    /// Admin only.
    public var emailVerified: Bool?
    /// Sent by Firebase's SDKs; tokens come back only after a user's own password change.
    public var returnSecureToken: Bool?
    /// Admin only: `{}` or `{"enrollments": []}` removes every second factor (the Admin SDKs' way); a list of phone
    /// factors makes them the account's phone factors (TOTP factors are enrolled only by their owner).
    public var mfa: MfaChanges?
    /// Admin only: the account's number (E.164); `deleteProvider: ["phone"]` removes it.
    public var phoneNumber: String?
    /// Admin only: custom claims, a JSON object in a string (`{}` removes them): the Admin SDKs' `set_custom_user_claims`.
    public var customAttributes: String?

    /// The `mfa` member of an update.
    public struct MfaChanges: Sendable, Codable, Equatable {
        public var enrollments: [MfaFactor]?

        public init(enrollments: [MfaFactor]? = nil) {
            self.enrollments = enrollments
        }
    }

    public init(
        idToken: String? = nil, localId: String? = nil, email: String? = nil, password: String? = nil, displayName: String? = nil,
        photoUrl: String? = nil, deleteAttribute: [String]? = nil, deleteProvider: [String]? = nil, validSince: Int64? = nil,
        disableUser: Bool? = nil, emailVerified: Bool? = nil, returnSecureToken: Bool? = nil
    ) {
        self.idToken = idToken
        self.localId = localId
        self.email = email
        self.password = password
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.deleteAttribute = deleteAttribute
        self.deleteProvider = deleteProvider
        self.validSince = validSince
        self.disableUser = disableUser
        self.emailVerified = emailVerified
        self.returnSecureToken = returnSecureToken
    }

    /// Lists, flags, `validSince` and the admin's `localId` are read leniently; the other fields must be strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodePresentString(forKey: .idToken)
        localId = container.decodeLenientString(forKey: .localId)
        oobCode = try container.decodeIfPresent(String.self, forKey: .oobCode)
        email = try container.decodePresentString(forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
        deleteAttribute = container.decodeLenientStrings(forKey: .deleteAttribute)
        deleteProvider = container.decodeLenientStrings(forKey: .deleteProvider)
        validSince = container.decodeLenientInt64(forKey: .validSince)
        disableUser = container.decodeLenientBool(forKey: .disableUser)
        emailVerified = container.decodeLenientBool(forKey: .emailVerified)
        returnSecureToken = container.decodeLenientBool(forKey: .returnSecureToken)
        mfa = try container.decodeIfPresent(MfaChanges.self, forKey: .mfa)
        customAttributes = try container.decodeIfPresent(String.self, forKey: .customAttributes)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
    }
}
