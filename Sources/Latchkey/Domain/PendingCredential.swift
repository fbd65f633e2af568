import Foundation

/// A provider's identity kept after a sign-in with it (`pendingToken`): for an hour (`idp.pendingTokenTtlSeconds`) the
/// token signs the same identity in again or links it, without the provider, which is how an app finishes "account
/// exists with a different credential" after signing in the old way. Only the token's keyed hash is stored.
package struct PendingCredential: Sendable, Equatable {
    package var tokenHash: Data
    package var identity: VerifiedIdentity
    package var context: String?
    package var expiresAt: Date

    package init(tokenHash: Data, identity: VerifiedIdentity, context: String?, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.identity = identity
        self.context = context
        self.expiresAt = expiresAt
    }

    /// The identity as stored: every field but the provider's ID token, which is a credential of its own.
    package static func encode(_ identity: VerifiedIdentity) -> String {
        let stored = Stored(
            providerID: identity.providerID, subject: identity.subject, email: identity.email?.value, isEmailVerified: identity.isEmailVerified,
            displayName: identity.displayName, firstName: identity.firstName, lastName: identity.lastName, photoURL: identity.photoURL,
            screenName: identity.screenName, rawUserInfo: identity.rawUserInfo)
        return String(decoding: (try? JSONEncoder().encode(stored)) ?? Data(), as: UTF8.self)
    }

    /// What `encode` stored; nil for anything else.
    package static func decode(_ text: String) -> VerifiedIdentity? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        return VerifiedIdentity(
            providerID: stored.providerID, subject: stored.subject, email: stored.email.flatMap(EmailAddress.init),
            isEmailVerified: stored.isEmailVerified, displayName: stored.displayName, firstName: stored.firstName, lastName: stored.lastName,
            photoURL: stored.photoURL, screenName: stored.screenName, rawUserInfo: stored.rawUserInfo, idToken: nil)
    }

    private struct Stored: Codable {
        var providerID: String
        var subject: String
        var email: String?
        var isEmailVerified: Bool
        var displayName: String?
        var firstName: String?
        var lastName: String?
        var photoURL: String?
        var screenName: String?
        var rawUserInfo: String
    }
}
