import Foundation

/// One way into an account: a provider and the provider's user id, with what the provider says of the user
/// (Firebase's `providerUserInfo` entries, `firebase.identities`, sign-in methods).
///
/// An account with an address has the email identity (provider `password`, the address as its user id), which both a
/// password and an email link sign in with; identity providers add theirs as they are linked.
package struct Identity: Sendable, Equatable {
    package var providerID: String
    package var providerUserID: String
    package var accountID: String
    package var email: EmailAddress?
    /// Whether the provider vouches for `email`.
    package var isEmailVerified: Bool
    package var displayName: String?
    package var photoURL: String?
    /// The provider's profile as it sent it (JSON), for `rawUserInfo`.
    package var rawProfile: String?
    package var createdAt: Date

    package init(
        providerID: String, providerUserID: String, accountID: String, email: EmailAddress?, isEmailVerified: Bool, displayName: String? = nil,
        photoURL: String? = nil, rawProfile: String? = nil, createdAt: Date
    ) {
        self.providerID = providerID
        self.providerUserID = providerUserID
        self.accountID = accountID
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.rawProfile = rawProfile
        self.createdAt = createdAt
    }

    /// What makes the identity unique: the provider and the provider's user id.
    package var key: IdentityKey { IdentityKey(providerID: providerID, providerUserID: providerUserID) }
}

/// An identity's unique key.
package struct IdentityKey: Hashable, Sendable {
    package var providerID: String
    package var providerUserID: String

    package init(providerID: String, providerUserID: String) {
        self.providerID = providerID
        self.providerUserID = providerUserID
    }
}
