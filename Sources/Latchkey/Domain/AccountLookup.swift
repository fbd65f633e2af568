import Foundation

/// Who an ID token belongs to, and how an address can sign in (`lookup`, `createAuthUri`).
package struct AccountLookup: Sendable {
    let store: any LinkStore
    let tokens: TokenIssuer

    package init(store: any LinkStore, tokens: TokenIssuer) {
        self.store = store
        self.tokens = tokens
    }

    /// The account behind a valid ID token. Tokens issued before the account's `validSince` (a revocation,
    /// or the password strip of an email-link takeover) are `TOKEN_EXPIRED`.
    package func account(idToken: String) async throws -> Account {
        try await authenticate(idToken: idToken).account
    }

    /// The account and the verified claims of an ID token, with the same checks as `account(idToken:)`.
    package func authenticate(idToken: String) async throws -> (account: Account, claims: IDTokenClaims) {
        let claims = try await tokens.verifyIDToken(idToken)
        let account = try await store.read { try Self.check(claims, in: $0) }.get()
        return (account, claims)
    }

    /// The account behind `claims`, if the token still counts: neither revoked by `validSince` (whole seconds, as
    /// Firebase's Admin SDKs compare) nor by its own session (exact), and the account not disabled. Run inside a
    /// write too, so a change never rests on a check made before a concurrent revocation.
    static func check(_ claims: IDTokenClaims, in transaction: any StoreTransaction) throws -> Verdict<Account> {
        guard let account = try transaction.account(id: claims.userID) else { return .refused(.userNotFound) }
        guard claims.issuedAt.value >= account.validSince else { return .refused(.tokenExpired) }
        if let id = claims.sessionID {
            // A session gone from the store was revoked days ago (`RetentionPolicy`): no token of it is still valid.
            guard let session = try transaction.session(id: id), session.revokedAt == nil else { return .refused(.tokenExpired) }
        }
        guard !account.isDisabled else { return .refused(.userDisabled) }
        return .accepted(account)
    }

    /// The accounts with any of these ids or addresses (admin lookup), each once.
    package func accounts(ids: [String], emails: [EmailAddress]) async throws -> [Account] {
        try await store.read { transaction in
            let found = try ids.compactMap { try transaction.account(id: $0) } + emails.compactMap { try transaction.account(email: $0) }
            var seen = Set<String>()
            return found.filter { seen.insert($0.id).inserted }
        }
    }

    /// How `email` can sign in, or `nil` when no account has it.
    package func signInMethods(for email: EmailAddress) async throws -> [SignInMethod]? {
        try await store.read { try $0.account(email: email) }.map(\.signInMethods)
    }
}

/// Firebase's names for the ways to sign in with an email address.
package enum SignInMethod: String, Sendable {
    case password
    case emailLink
}

extension Account {
    /// A password while one is set; email link once the address is proven, which completing a link does.
    package var signInMethods: [SignInMethod] {
        (passwordHash != nil ? [.password] : []) + (email != nil && isEmailVerified ? [.emailLink] : [])
    }
}
