import Foundation

/// What a sign-in stopped at the second factor will change in its account once the code is right, kept with its
/// challenge (`SecondFactorChallenge`): the fields its first factor set, and the provider identity it links or
/// refreshes. Until then the account stays exactly as it was, and a sign-in that never passes changes nothing.
///
/// Fields are kept as changes, not as a copy of the account, so that what happened to the account meanwhile (a new
/// password, a new name) is kept where this sign-in does not change it. A rehashed password is not kept: the next
/// completed password sign-in upgrades it. No takeover is kept either: a takeover strips the account's factors, so a
/// sign-in that takes over is never challenged.
package struct PendingSignIn: Sendable, Equatable {
    /// A field's new value (nil when the sign-in clears it).
    package struct Change<Value: Sendable & Equatable>: Sendable, Equatable {
        package var value: Value

        package init(value: Value) {
            self.value = value
        }
    }

    package var email: Change<EmailAddress?>?
    package var isEmailVerified: Change<Bool>?
    package var displayName: Change<String?>?
    package var photoURL: Change<String?>?
    /// The provider identity the sign-in saves (`SignInFinisher.Attempt.identity`).
    package var identity: Identity?
    /// Whether the account's other identities of the same provider go first (`SignInFinisher.Attempt.replacesProviderIdentities`).
    package var replacesProviderIdentities = false
    /// The custom token's claims its session will carry (`SignInFinisher.Attempt.developerClaims`).
    package var developerClaims: CustomClaims?

    package init() {}

    /// What `attempt` changes in `attempt.stored`.
    init(_ attempt: SignInFinisher.Attempt) {
        let (account, stored) = (attempt.account, attempt.stored)
        func change<Value>(_ field: KeyPath<Account, Value>) -> Change<Value>? {
            stored.map { $0[keyPath: field] } == account[keyPath: field] ? nil : Change(value: account[keyPath: field])
        }
        email = change(\.email)
        isEmailVerified = change(\.isEmailVerified)
        displayName = change(\.displayName)
        photoURL = change(\.photoURL)
        identity = attempt.identity
        replacesProviderIdentities = attempt.replacesProviderIdentities
        developerClaims = attempt.developerClaims
    }

    /// `account` as the sign-in leaves it.
    func applied(to account: Account) -> Account {
        var changed = account
        if let email { changed.email = email.value }
        if let isEmailVerified { changed.isEmailVerified = isEmailVerified.value }
        if let displayName { changed.displayName = displayName.value }
        if let photoURL { changed.photoURL = photoURL.value }
        return changed
    }

    /// The stored form (the challenge's `pending_sign_in` column).
    package static func encode(_ pending: PendingSignIn) -> String {
        let identity = pending.identity.map {
            Stored.Identity(
                providerID: $0.providerID, providerUserID: $0.providerUserID, email: $0.email?.value, isEmailVerified: $0.isEmailVerified,
                displayName: $0.displayName, photoURL: $0.photoURL, rawProfile: $0.rawProfile, createdAt: $0.createdAt.timeIntervalSince1970)
        }
        let stored = Stored(
            email: pending.email.map { .init(value: $0.value?.value) }, isEmailVerified: pending.isEmailVerified?.value,
            displayName: pending.displayName.map { .init(value: $0.value) }, photoURL: pending.photoURL.map { .init(value: $0.value) },
            identity: identity, replacesProviderIdentities: pending.replacesProviderIdentities, developerClaims: pending.developerClaims?.json)
        return String(decoding: (try? JSONEncoder().encode(stored)) ?? Data(), as: UTF8.self)
    }

    /// What `encode` stored for the account `accountID`; nil for anything else (the challenge then cannot be passed). A
    /// challenge kept before the column existed has none: its sign-in wrote its changes before it was challenged.
    package static func decode(_ text: String?, accountID: String) -> PendingSignIn? {
        guard let text else { return PendingSignIn() }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        var pending = PendingSignIn()
        if let email = stored.email {
            if let raw = email.value {
                guard let address = EmailAddress(raw) else { return nil }
                pending.email = Change(value: address)
            } else {
                pending.email = Change(value: nil)
            }
        }
        pending.isEmailVerified = stored.isEmailVerified.map { Change(value: $0) }
        pending.displayName = stored.displayName.map { Change(value: $0.value) }
        pending.photoURL = stored.photoURL.map { Change(value: $0.value) }
        if let identity = stored.identity {
            pending.identity = Identity(
                providerID: identity.providerID, providerUserID: identity.providerUserID, accountID: accountID,
                email: identity.email.flatMap(EmailAddress.init), isEmailVerified: identity.isEmailVerified, displayName: identity.displayName,
                photoURL: identity.photoURL, rawProfile: identity.rawProfile, createdAt: Date(timeIntervalSince1970: identity.createdAt))
        }
        pending.replacesProviderIdentities = stored.replacesProviderIdentities
        pending.developerClaims = stored.developerClaims.map(CustomClaims.init(stored:))
        return pending
    }

    private struct Stored: Codable {
        /// A field the sign-in sets, to `value` (absent when it clears it).
        struct Field: Codable {
            var value: String?
        }

        struct Identity: Codable {
            var providerID: String
            var providerUserID: String
            var email: String?
            var isEmailVerified: Bool
            var displayName: String?
            var photoURL: String?
            var rawProfile: String?
            var createdAt: Double
        }

        var email: Field?
        var isEmailVerified: Bool?
        var displayName: Field?
        var photoURL: Field?
        var identity: Identity?
        var replacesProviderIdentities: Bool
        var developerClaims: String?
    }
}
