import Foundation

/// Who an ID token belongs to, and how an address can sign in (`lookup`, `createAuthUri`).
package struct AccountLookup: Sendable {
    let store: any Store
    let authentication: Authentication
    let enumerationProtection: Bool
    /// `signIn.allowDuplicateEmails`: an address then says nothing of the providers, each of which may have an
    /// account of its own with it, so only the address's own ways in are told.
    let allowsDuplicateEmails: Bool

    package init(store: any Store, authentication: Authentication, enumerationProtection: Bool, allowsDuplicateEmails: Bool = false) {
        self.store = store
        self.authentication = authentication
        self.enumerationProtection = enumerationProtection
        self.allowsDuplicateEmails = allowsDuplicateEmails
    }

    /// The user behind a valid ID token. Tokens issued before the account's `validSince` (a revocation,
    /// or the password strip of an email-link takeover) are `TOKEN_EXPIRED`.
    package func user(idToken: String) async throws -> UserRecord {
        let claims = try await authentication.claims(of: idToken)
        return try await store.read { transaction in
            try await transaction.userRecord(try await Authentication.account(of: claims, in: transaction), describing: true)
        }
    }

    /// The longest page of the admin listing, and the page a request that names none gets (Firebase's).
    static let pageSizes = (largest: 1000, standard: 20)

    /// A page of every account in id order for the admin listing (`accounts:batchGet`): at most `size` users, and the
    /// token of the next page when there are more.
    package func page(size: Int?, after token: String?) async throws -> (users: [UserRecord], nextPageToken: String?) {
        let size = size ?? Self.pageSizes.standard
        guard (1...Self.pageSizes.largest).contains(size) else { throw SignInError.invalidPageSelection }
        let after = try PageToken.id(resumedBy: token, invalid: SignInError.invalidPageSelection)
        return try await store.read { transaction in
            let accounts = try await transaction.accounts(after: after, limit: size + 1)
            var users: [UserRecord] = []
            for account in accounts.prefix(size) { users.append(try await transaction.userRecord(account, describing: true)) }
            let next = accounts.count > size ? users.last.map { PageToken.resuming(after: $0.account.id) } : nil
            return (users, next)
        }
    }

    /// The users with any of these ids, addresses, numbers or identities (admin lookup), each once.
    package func users(
        ids: [String], emails: [EmailAddress], phoneNumbers: [PhoneNumber] = [], identities: [(providerID: String, providerUserID: String)] = []
    ) async throws -> [UserRecord] {
        try await store.read { [identities] transaction in
            var found: [Account] = []
            for id in ids { if let account = try await transaction.account(id: id) { found.append(account) } }
            for email in emails { if let account = try await transaction.account(email: email) { found.append(account) } }
            for number in phoneNumbers { if let account = try await transaction.account(phoneNumber: number) { found.append(account) } }
            for (providerID, providerUserID) in identities {
                guard let identity = try await transaction.identity(providerID: providerID, providerUserID: providerUserID),
                    let account = try await transaction.account(id: identity.accountID)
                else { continue }
                found.append(account)
            }
            var seen = Set<String>()
            var users: [UserRecord] = []
            for account in found where seen.insert(account.id).inserted { users.append(try await transaction.userRecord(account, describing: true)) }
            return users
        }
    }

    /// Whether `email` has an account and how it signs in (`createAuthUri`), or nil when enumeration protection
    /// keeps that secret.
    package func signInOptions(for email: EmailAddress) async throws -> SignInOptions? {
        guard !enumerationProtection else { return nil }
        let user = try await store.read { transaction -> UserRecord? in
            guard let account = try await transaction.account(email: email) else { return nil }
            return try await transaction.userRecord(account)
        }
        var told = user
        if allowsDuplicateEmails { told?.identities.removeAll { $0.providerID != SignInProvider.password.id } }
        return SignInOptions(isRegistered: user != nil, providerIDs: told?.providerIDs ?? [], signInMethods: told?.signInMethods ?? [])
    }
}
