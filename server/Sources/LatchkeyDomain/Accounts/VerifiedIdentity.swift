/// Who an identity provider says signs in, once its credential has been checked: the provider's user id, and what
/// the provider says of the user (spec "Claims → fields").
package struct VerifiedIdentity: Sendable, Equatable {
    package var providerID: String
    /// The provider's user id (`sub`): `rawId` and `federatedId`.
    package var subject: String
    /// The address, lower-cased; nil when the provider gave none or an invalid one.
    package var email: EmailAddress?
    /// Whether the provider vouches for `email`, as the provider's `emailTrust` decides.
    package var isEmailVerified: Bool
    package var displayName: String?
    package var firstName: String?
    package var lastName: String?
    package var photoURL: String?
    package var screenName: String?
    /// Every claim as the provider sent it (JSON), for `rawUserInfo`.
    package var rawUserInfo: String
    /// The provider's ID token, for `oauthIdToken`; nil when the identity comes from a `pendingToken`.
    package var idToken: String?

    package init(
        providerID: String, subject: String, email: EmailAddress?, isEmailVerified: Bool, displayName: String? = nil, firstName: String? = nil,
        lastName: String? = nil, photoURL: String? = nil, screenName: String? = nil, rawUserInfo: String, idToken: String?
    ) {
        self.providerID = providerID
        self.subject = subject
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.photoURL = photoURL
        self.screenName = screenName
        self.rawUserInfo = rawUserInfo
        self.idToken = idToken
    }
}
