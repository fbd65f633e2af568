/// Firebase's `SignupNewUserRequest` (`accounts:signUp`): a password account, or with neither field an anonymous one.
public struct SignupNewUserRequest: Sendable, Codable, Equatable {
    /// Present (even null) makes this a password sign-up, which then needs both fields.
    public var email: String?
    public var password: String?
    /// The signed-in user's ID token: the email and password are linked to that account instead of making one (the
    /// SDKs' `linkWithCredential` with an email credential).
    public var idToken: String?
    /// Sent by Firebase's SDKs; tokens are always returned (but to an admin, who creates an account nobody signed in to).
    public var returnSecureToken: Bool?
    /// Admin only, as in Firebase's privileged `signUp`: the account's uid, profile and status; ignored otherwise.
    public var localId: String?
    public var displayName: String?
    public var photoUrl: String?
    public var emailVerified: Bool?
    public var disabled: Bool?
    public var phoneNumber: String?

    public init(email: String? = nil, password: String? = nil, idToken: String? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.idToken = idToken
        self.returnSecureToken = returnSecureToken
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decodePresentString(forKey: .email)
        password = try container.decodePresentString(forKey: .password)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        returnSecureToken = container.decodeLenientBool(forKey: .returnSecureToken)
        localId = try container.decodeIfPresent(String.self, forKey: .localId)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
        emailVerified = container.decodeLenientBool(forKey: .emailVerified)
        disabled = container.decodeLenientBool(forKey: .disabled)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
    }
}
