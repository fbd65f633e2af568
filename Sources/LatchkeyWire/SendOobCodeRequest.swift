/// Firebase's `GetOobConfirmationCodeRequest` (`accounts:sendOobCode`): send a sign-in, password reset, verification or
/// address change link, or for an admin return it.
public struct SendOobCodeRequest: Sendable, Codable, Equatable {
    public var requestType: OobRequestType
    public var email: String?
    /// The signed-in user a verification or an address change is for.
    public var idToken: String?
    /// The address an address change moves to (`VERIFY_AND_CHANGE_EMAIL`).
    public var newEmail: String?
    /// Where the link leads once used; its host must be an authorized domain.
    public var continueUrl: String?
    public var canHandleCodeInApp: Bool?
    public var iOSBundleId: String?
    public var androidPackageName: String?
    public var androidInstallApp: Bool?
    /// Also read as `androidMinimumVersionCode`, the JS SDK's name.
    public var androidMinimumVersion: String?
    /// Admin only: answer the code and link instead of mailing them.
    public var returnOobLink: Bool?

    public init(
        requestType: OobRequestType = .emailSignIn, email: String?, continueUrl: String?, canHandleCodeInApp: Bool? = nil,
        iOSBundleId: String? = nil, androidPackageName: String? = nil, androidInstallApp: Bool? = nil,
        androidMinimumVersion: String? = nil, returnOobLink: Bool? = nil, idToken: String? = nil, newEmail: String? = nil
    ) {
        self.requestType = requestType
        self.email = email
        self.idToken = idToken
        self.newEmail = newEmail
        self.continueUrl = continueUrl
        self.canHandleCodeInApp = canHandleCodeInApp
        self.iOSBundleId = iOSBundleId
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion = androidMinimumVersion
        self.returnOobLink = returnOobLink
    }

    private enum CodingKeys: String, CodingKey {
        case requestType, email, idToken, newEmail, continueUrl, canHandleCodeInApp, iOSBundleId, androidPackageName, androidInstallApp
        case androidMinimumVersion, returnOobLink
        /// Read only: encoding writes `androidMinimumVersion`.
        case androidMinimumVersionCode
    }

    /// The request type is read first, as it decides what the rest means; flags and the minimum version are hints
    /// that are ignored when they have the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestType = try container.decode(OobRequestType.self, forKey: .requestType)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        newEmail = try container.decodeIfPresent(String.self, forKey: .newEmail)
        continueUrl = try container.decodeIfPresent(String.self, forKey: .continueUrl)
        canHandleCodeInApp = container.decodeLenientBool(forKey: .canHandleCodeInApp)
        iOSBundleId = try container.decodeIfPresent(String.self, forKey: .iOSBundleId)
        androidPackageName = try container.decodeIfPresent(String.self, forKey: .androidPackageName)
        androidInstallApp = container.decodeLenientBool(forKey: .androidInstallApp)
        // The first name present wins, even when its value is unusable.
        let versionKey: CodingKeys = container.contains(.androidMinimumVersion) ? .androidMinimumVersion : .androidMinimumVersionCode
        androidMinimumVersion = container.decodeLenientString(forKey: versionKey)
        returnOobLink = container.decodeLenientBool(forKey: .returnOobLink)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestType, forKey: .requestType)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(newEmail, forKey: .newEmail)
        try container.encodeIfPresent(continueUrl, forKey: .continueUrl)
        try container.encodeIfPresent(canHandleCodeInApp, forKey: .canHandleCodeInApp)
        try container.encodeIfPresent(iOSBundleId, forKey: .iOSBundleId)
        try container.encodeIfPresent(androidPackageName, forKey: .androidPackageName)
        try container.encodeIfPresent(androidInstallApp, forKey: .androidInstallApp)
        try container.encodeIfPresent(androidMinimumVersion, forKey: .androidMinimumVersion)
        try container.encodeIfPresent(returnOobLink, forKey: .returnOobLink)
    }
}
