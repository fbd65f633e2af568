/// Firebase's `ProviderUserInfo`: one way an account signs in, as lookups and updates list them.
public struct ProviderUserInfo: Sendable, Codable, Equatable {
    public var providerId: String
    /// The provider's user id; none for `phone`, which Firebase lists by `rawId` and `phoneNumber` alone.
    public var federatedId: String?
    /// The address the provider gave, when it gave one.
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var rawId: String
    /// The number, for the `phone` entry.
    public var phoneNumber: String?

    public init(
        providerId: String, federatedId: String?, email: String?, displayName: String? = nil, photoUrl: String? = nil, rawId: String,
        phoneNumber: String? = nil
    ) {
        self.providerId = providerId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.rawId = rawId
        self.phoneNumber = phoneNumber
    }
}
