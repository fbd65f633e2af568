/// Who asks for a change, and of which account: the account's own user (through an ID token), or an admin token naming
/// the account by its id.
enum AccountActor: Sendable {
    case user(IDTokenClaims)
    case admin(accountID: String)

    /// The actor of a request that names its account by `idToken` or, for an admin without one, by `localId` (an admin
    /// who sends `idToken`, even null, acts as that user). Only the token's signature is checked here: whether it still
    /// counts is decided inside the write that acts (`account(in:)`).
    static func of(idToken: String?, localId: String?, by caller: Caller, authentication: Authentication) async throws -> AccountActor {
        if caller.isAdmin, idToken == nil {
            guard let localId, !localId.isEmpty else { throw SignInError.userNotFound }
            return .admin(accountID: localId)
        }
        guard let idToken, !idToken.isEmpty else { throw SignInError.invalidIDToken }
        return .user(try await authentication.claims(of: idToken))
    }

    /// The account acted on, held until the write ends: the user's own while the token still counts
    /// (`Authentication.account`), or the one the admin named, so that a change never writes back what a concurrent one
    /// changed.
    func account(in transaction: any StoreTransaction) async throws -> Account {
        switch self {
        case .user(let claims):
            return try await Authentication.account(of: claims, in: transaction, locking: true)
        case .admin(let id):
            guard let account = try await transaction.lockedAccount(id: id) else { throw SignInError.userNotFound }
            return account
        }
    }

    /// Who acted, as the audit log says it.
    var auditName: String {
        switch self {
        case .user: "the user"
        case .admin: "an admin"
        }
    }
}
