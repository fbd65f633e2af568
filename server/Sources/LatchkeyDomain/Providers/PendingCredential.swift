import Foundation

/// A provider's identity kept for a `pendingToken`, handed out only where Firebase's SDKs use one: "needs confirmation"
/// and the "already in use" refusals (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS` with `returnIdpCredential`).
/// For `idp.pendingTokenTtlSeconds` (an hour) the token signs that identity in or links it once, without the provider,
/// which is how an app finishes "account exists with a different credential" after signing in the old way.
///
/// It is bound to the account it was kept for (the one the identity signs in to, else the one that holds its address):
/// it dies with that account, when that account's sessions are revoked after it was kept, and, for a linked identity,
/// when the identity is unlinked. Only the token's keyed hash is stored.
package struct PendingCredential: Sendable, Equatable {
    package var tokenHash: Data
    package var identity: VerifiedIdentity
    package var context: String?
    package var expiresAt: Date
    /// The account it was kept for, if any.
    package var accountID: String?
    /// Whether the identity signed in to `accountID` when it was kept (and must still).
    package var isLinked: Bool
    package var keptAt: Date

    package init(
        tokenHash: Data, identity: VerifiedIdentity, context: String?, expiresAt: Date, accountID: String? = nil, isLinked: Bool = false,
        keptAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.tokenHash = tokenHash
        self.identity = identity
        self.context = context
        self.expiresAt = expiresAt
        self.accountID = accountID
        self.isLinked = isLinked
        self.keptAt = keptAt
    }

    /// The identity and its binding as stored (the `identity` column): every field but the provider's ID token, which
    /// is a credential of its own.
    package static func encode(_ credential: PendingCredential) -> String {
        let identity = credential.identity
        let stored = Stored(
            providerID: identity.providerID, subject: identity.subject, email: identity.email?.value, isEmailVerified: identity.isEmailVerified,
            displayName: identity.displayName, firstName: identity.firstName, lastName: identity.lastName, photoURL: identity.photoURL,
            screenName: identity.screenName, rawUserInfo: identity.rawUserInfo, accountID: credential.accountID, isLinked: credential.isLinked,
            keptAt: credential.keptAt.timeIntervalSince1970)
        return String(decoding: (try? JSONEncoder().encode(stored)) ?? Data(), as: UTF8.self)
    }

    /// The credential `encode` stored, with the row's other columns; nil for anything else. One kept before the binding
    /// was stored counts as kept at the epoch, so any revocation ends it.
    package static func decode(_ text: String, tokenHash: Data, context: String?, expiresAt: Date) -> PendingCredential? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        let identity = VerifiedIdentity(
            providerID: stored.providerID, subject: stored.subject, email: stored.email.flatMap(EmailAddress.init),
            isEmailVerified: stored.isEmailVerified, displayName: stored.displayName, firstName: stored.firstName, lastName: stored.lastName,
            photoURL: stored.photoURL, screenName: stored.screenName, rawUserInfo: stored.rawUserInfo, idToken: nil)
        return PendingCredential(
            tokenHash: tokenHash, identity: identity, context: context, expiresAt: expiresAt, accountID: stored.accountID,
            isLinked: stored.isLinked ?? false, keptAt: Date(timeIntervalSince1970: stored.keptAt ?? 0))
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
        var accountID: String?
        var isLinked: Bool?
        var keptAt: Double?
    }
}
