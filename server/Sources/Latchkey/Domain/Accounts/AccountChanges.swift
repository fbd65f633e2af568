import Foundation

/// What `accounts:update` may change. Fields left `nil` stay as they are.
package struct AccountChanges: Sendable {
    /// A new password, already checked against the length rules.
    package var password: String?
    /// `deleteProvider`: the providers whose identities go; for `password` the password goes and email-link sign-in stays.
    package var deletedProviders: Set<String> = []
    /// Revokes every session issued before this instant.
    package var validSince: Date?
    /// A new address; it starts unverified.
    package var email: EmailAddress?
    package var displayName: String?
    package var photoURL: String?
    package var deletesDisplayName = false
    package var deletesPhotoURL = false
    /// Admin only.
    package var isDisabled: Bool?
    /// Admin only.
    package var isEmailVerified: Bool?
    /// Admin only: new custom claims (`.some(nil)` removes them).
    package var customClaims: CustomClaims??
    /// Admin only: removes every second factor (a lost phone), telling the owner by email.
    package var removesSecondFactors = false
    /// The language of the request, for the notice of removed factors.
    package var language = LanguageTag.english

    package init() {}

    /// Changes that a signed-in user may only make shortly after proving who they are.
    var isSensitive: Bool { password != nil || email != nil }
}

/// Who asks for a change: the account's own user (through an ID token) or an admin token.
package enum AccountActor: Sendable {
    case user(IDTokenClaims)
    case admin

    /// Who acted, as the audit log says it.
    var auditName: String {
        switch self {
        case .user: "the user"
        case .admin: "an admin"
        }
    }
}
