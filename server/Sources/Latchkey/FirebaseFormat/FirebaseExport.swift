import Foundation
import LatchkeyDomain
import LatchkeyWire

/// `latchkey export --format firebase`: every account as the JSON `firebase auth:import` reads, with the `BCRYPT`
/// algorithm. A password whose hash is plain bcrypt (every password of at most 72 bytes set, or used, since
/// hashes are plain bcrypt again) goes out as its hash; a longer one, a pre-hash not yet replaced by a sign-in, or an imported hash
/// not yet used cannot be checked by plain bcrypt, and goes out without a hash (those users reset their password).
/// Identities go out only for the providers `firebase auth:import` accepts: one other id makes it refuse the whole file.
package enum FirebaseExport {
    /// What an export holds.
    package struct Summary: Sendable, Equatable {
        package var users = 0
        /// Users whose password could not go with them.
        package var passwordsLeftOut = 0
        /// Identities of providers Firebase's import refuses (`oidc.*` among them), by provider.
        package var identitiesLeftOut: [String: Int] = [:]
        /// TOTP factors, whose secrets no import takes (phone factors go out as `mfaInfo`).
        package var authenticatorsLeftOut = 0
    }

    /// The provider ids firebase-tools' `auth:import` accepts.
    static let importableProviders: Set<String> = [
        "google.com", "facebook.com", "twitter.com", "github.com", "apple.com", "microsoft.com", "gc.apple.com", "playgames.google.com",
        "linkedin.com", "yahoo.com",
    ]

    /// Every account of `store`, read from one snapshot, in uid order.
    package static func file(of store: any Store) async throws -> (FirebaseExportFile, Summary) {
        try await store.readSnapshot { transaction in
            var users: [FirebaseExportFile.User] = []
            var summary = Summary()
            var after: String?
            while true {
                let page = try await transaction.accounts(after: after, limit: 1000)
                let identities = Dictionary(grouping: try await transaction.identities(accountIDs: page.map(\.id)), by: \.accountID)
                for account in page {
                    // The email identity is Firebase's own bookkeeping, which its import refuses too.
                    let federated = (identities[account.id] ?? []).filter { $0.providerID != SignInProvider.password.id }
                    for identity in federated where !importableProviders.contains(identity.providerID) {
                        summary.identitiesLeftOut[identity.providerID, default: 0] += 1
                    }
                    let factors = try await transaction.secondFactors(accountID: account.id)
                    summary.authenticatorsLeftOut += factors.count { $0.kind == .totp }
                    let user = exported(account, identities: federated.filter { importableProviders.contains($0.providerID) }, factors: factors)
                    if account.passwordHash != nil, user.passwordHash == nil { summary.passwordsLeftOut += 1 }
                    users.append(user)
                }
                guard let last = page.last, page.count == 1000 else { break }
                after = last.id
            }
            summary.users = users.count
            return (FirebaseExportFile(users: users), summary)
        }
    }

    private static func exported(_ account: Account, identities: [Identity], factors: [SecondFactor]) -> FirebaseExportFile.User {
        func milliseconds(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
        var user = FirebaseExportFile.User(localId: account.id)
        user.email = account.email?.value
        user.emailVerified = account.isEmailVerified
        user.passwordHash = account.passwordHash.flatMap(plainBcrypt).map { Data($0.utf8).base64EncodedString() }
        user.displayName = account.displayName
        user.photoUrl = account.photoURL
        user.createdAt = milliseconds(account.createdAt)
        user.lastSignedInAt = account.lastSignInAt.map(milliseconds)
        user.disabled = account.isDisabled
        user.customAttributes = account.customClaims?.json
        user.phoneNumber = account.phoneNumber?.value
        let phones = factors.compactMap { factor in
            factor.phoneNumber.map {
                MfaFactor(mfaEnrollmentId: factor.id, displayName: factor.displayName, phoneInfo: $0.value, enrolledAt: MfaEnrollment.timestamp(factor.enrolledAt))
            }
        }
        user.mfaInfo = phones.isEmpty ? nil : phones
        let providers = identities.map { identity in
            UploadAccountRequest.Provider(
                providerId: identity.providerID, rawId: identity.providerUserID, email: identity.email?.value, displayName: identity.displayName,
                photoUrl: identity.photoURL)
        }
        user.providerUserInfo = providers.isEmpty ? nil : providers
        return user
    }

    /// `hash` when it is a bcrypt string of the password itself.
    private static func plainBcrypt(_ hash: String) -> String? {
        ["$2a$", "$2b$", "$2y$"].contains(String(hash.prefix(4))) ? hash : nil
    }
}
