/// Firebase's `ProviderUserInfo`: one way an account signs in, as lookups and updates list them.
public struct ProviderUserInfo: Sendable, Codable, Equatable {
    public var providerId: String
    public var federatedId: String
    /// The address the provider gave, when it gave one.
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var rawId: String

    public init(providerId: String, federatedId: String, email: String?, displayName: String? = nil, photoUrl: String? = nil, rawId: String) {
        self.providerId = providerId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.rawId = rawId
    }
}
