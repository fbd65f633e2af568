/// Firebase's `UploadAccountRequest` (`accounts:batchCreate`, the Admin SDKs' `import_users`): accounts made elsewhere,
/// with the algorithm and parameters their password hashes were made with. Byte fields (`signerKey`, `saltSeparator`,
/// each user's `passwordHash` and `salt`) are base64, standard or URL-safe: the Python Admin SDK sends URL-safe.
public struct UploadAccountRequest: Sendable, Codable, Equatable {
    public var users: [User]?
    public var hashAlgorithm: String?
    public var signerKey: String?
    public var saltSeparator: String?
    public var rounds: Int64?
    public var memoryCost: Int64?
    public var cpuMemCost: Int64?
    public var blockSize: Int64?
    public var parallelization: Int64?
    public var dkLen: Int64?
    public var passwordHashOrder: String?
    /// Replace the account that has a user's `localId`, instead of refusing that user.
    public var allowOverwrite: Bool?
    /// Refuse the whole batch when two of its users share an address or a provider's user id.
    public var sanityCheck: Bool?

    public init(users: [User]?, hashAlgorithm: String? = nil) {
        self.users = users
        self.hashAlgorithm = hashAlgorithm
    }

    /// Numbers are int64 as a JSON number or a decimal string; flags are read leniently.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        users = try container.decodeIfPresent([User].self, forKey: .users)
        hashAlgorithm = try container.decodeIfPresent(String.self, forKey: .hashAlgorithm)
        signerKey = try container.decodeIfPresent(String.self, forKey: .signerKey)
        saltSeparator = try container.decodeIfPresent(String.self, forKey: .saltSeparator)
        rounds = try container.decodeInt64IfPresent(forKey: .rounds)
        memoryCost = try container.decodeInt64IfPresent(forKey: .memoryCost)
        cpuMemCost = try container.decodeInt64IfPresent(forKey: .cpuMemCost)
        blockSize = try container.decodeInt64IfPresent(forKey: .blockSize)
        parallelization = try container.decodeInt64IfPresent(forKey: .parallelization)
        dkLen = try container.decodeInt64IfPresent(forKey: .dkLen)
        passwordHashOrder = try container.decodeIfPresent(String.self, forKey: .passwordHashOrder)
        allowOverwrite = container.decodeLenientBool(forKey: .allowOverwrite)
        sanityCheck = container.decodeLenientBool(forKey: .sanityCheck)
    }

    /// One account to create, as Firebase's `UserInfo` describes it; times in milliseconds since 1970.
    public struct User: Sendable, Codable, Equatable {
        public var localId: String?
        public var email: String?
        public var emailVerified: Bool?
        public var displayName: String?
        public var photoUrl: String?
        public var disabled: Bool?
        public var createdAt: Int64?
        public var lastLoginAt: Int64?
        public var passwordHash: String?
        public var salt: String?
        public var providerUserInfo: [Provider]?
        /// Custom claims, as a JSON object in a string.
        public var customAttributes: String?
        public var phoneNumber: String?
        public var mfaInfo: [MfaFactor]?

        public init(localId: String?, email: String? = nil) {
            self.localId = localId
            self.email = email
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            localId = try container.decodeIfPresent(String.self, forKey: .localId)
            email = try container.decodeIfPresent(String.self, forKey: .email)
            emailVerified = container.decodeLenientBool(forKey: .emailVerified)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
            disabled = container.decodeLenientBool(forKey: .disabled)
            createdAt = try container.decodeInt64IfPresent(forKey: .createdAt)
            lastLoginAt = try container.decodeInt64IfPresent(forKey: .lastLoginAt)
            passwordHash = try container.decodeIfPresent(String.self, forKey: .passwordHash)
            salt = try container.decodeIfPresent(String.self, forKey: .salt)
            providerUserInfo = try container.decodeIfPresent([Provider].self, forKey: .providerUserInfo)
            customAttributes = try container.decodeIfPresent(String.self, forKey: .customAttributes)
            phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
            mfaInfo = try container.decodeIfPresent([MfaFactor].self, forKey: .mfaInfo)
        }
    }

    /// A provider's identity of the user (`providerUserInfo`).
    public struct Provider: Sendable, Codable, Equatable {
        public var providerId: String?
        public var rawId: String?
        public var email: String?
        public var displayName: String?
        public var photoUrl: String?

        public init(providerId: String?, rawId: String?, email: String? = nil, displayName: String? = nil, photoUrl: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.displayName = displayName
            self.photoUrl = photoUrl
        }
    }
}

/// Firebase's answer to `accounts:batchCreate`: the users that were not imported, by their place in the request.
public struct UploadAccountResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#UploadAccountResponse"
    /// Absent when every user was imported.
    public var error: [UserError]?

    public init(error: [UserError]?) {
        self.error = error
    }

    public struct UserError: Sendable, Codable, Equatable {
        public var index: Int
        public var message: String

        public init(index: Int, message: String) {
            self.index = index
            self.message = message
        }
    }
}
