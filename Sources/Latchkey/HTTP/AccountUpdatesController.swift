import Foundation
import Hummingbird

/// `accounts:update` and `accounts:delete`: by the signed-in user (`idToken`) or an admin (`localId`).
struct AccountUpdatesController {
    let administration: AccountAdministration
    let passwords: PasswordAccounts
    let lookup: AccountLookup

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:update", use: update)
            .post("accounts:delete", use: delete)
    }

    /// Firebase's `SetAccountInfoResponse`; tokens only when the password changed.
    struct UpdateResponse: ResponseEncodable {
        var kind = "identitytoolkit#SetAccountInfoResponse"
        let localId: String
        let email: String?
        let emailVerified: Bool
        let displayName: String?
        let photoUrl: String?
        let passwordHash: String?
        let providerUserInfo: [AccountsController.LookupResponse.User.ProviderInfo]
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
    }

    /// Firebase's `DeleteAccountResponse`.
    struct DeleteResponse: ResponseEncodable {
        var kind = "identitytoolkit#DeleteAccountResponse"
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> UpdateResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        let (account, actor) = try await subject(of: body, context)
        var changes = AccountChanges()
        if let password = try IdentityToolkitController.optionalString(body["password"], else: .weakPassword) {
            changes.password = try PasswordHasher.validate(password)
        }
        changes.deletedProviders = Set(body["deleteProvider"].map(AccountsController.strings) ?? [])
        if body["email"] != nil { changes.email = try IdentityToolkitController.email(in: body) }
        changes.displayName = try Self.profileText(body["displayName"])
        changes.photoURL = try Self.profileText(body["photoUrl"])
        let deleted = Set(body["deleteAttribute"].map(AccountsController.strings) ?? [])
        changes.deletesDisplayName = deleted.contains("DISPLAY_NAME")
        changes.deletesPhotoURL = deleted.contains("PHOTO_URL")
        changes.validSince = body["validSince"]?.intValue.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        if case .admin = actor {
            changes.isDisabled = body["disableUser"]?.boolValue
            changes.isEmailVerified = body["emailVerified"]?.boolValue
        }
        let (updated, session) = try await administration.update(
            account, with: changes, by: actor, requester: context.requester(of: request), logger: context.logger)
        return response(for: updated, session: session)
    }

    private func response(for record: UserRecord, session: Session?) -> UpdateResponse {
        let user = AccountsController.LookupResponse.User(record)
        return UpdateResponse(
            localId: user.localId, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName, photoUrl: user.photoUrl,
            passwordHash: user.passwordHash, providerUserInfo: user.providerUserInfo, idToken: session?.idToken,
            refreshToken: session?.refreshToken, expiresIn: session.map { String($0.expiresIn) })
    }

    /// Firebase's admin `accounts` create (`POST /v1/projects/{projectId}/accounts`), used by the Admin SDKs'
    /// `create_user`: an account with any of email, password, `emailVerified`, `displayName`, `photoUrl`, `disabled`.
    @Sendable func createAccount(_ request: Request, context: AppRequestContext) async throws -> UpdateResponse {
        guard context.isAdmin else { throw APIError.unauthenticated }
        let body = try await RequestBody.jsonObject(request, context: context)
        let email = body["email"] == nil ? nil : try IdentityToolkitController.email(in: body)
        let password = try IdentityToolkitController.optionalString(body["password"], else: .weakPassword).map(PasswordHasher.validate)
        let id = try Self.chosenLocalID(body["localId"])
        // Everything is checked before the account exists, so a refused request creates nothing.
        var changes = AccountChanges()
        changes.displayName = try Self.profileText(body["displayName"])
        changes.photoURL = try Self.profileText(body["photoUrl"])
        changes.isDisabled = body["disabled"]?.boolValue
        changes.isEmailVerified = body["emailVerified"]?.boolValue
        let session = try await passwords.signUp(
            id: id, email: email, password: password, requester: context.requester(of: request), logger: context.logger)
        let (user, _) = try await administration.update(
            session.account, with: changes, by: .admin, requester: context.requester(of: request), logger: context.logger)
        return response(for: user, session: nil)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> DeleteResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        let (account, actor) = try await subject(of: body, context)
        try await administration.delete(account, by: actor, requester: context.requester(of: request), logger: context.logger)
        return DeleteResponse()
    }

    /// A uid chosen by an admin: 1 to 128 characters, none of them control characters (Firebase's rule) nor
    /// bidirectional formatting characters, since a uid reaches log lines and `latchkey audit`'s terminal.
    static func chosenLocalID(_ value: JSONValue?) throws(SignInError) -> String? {
        guard let id = try IdentityToolkitController.optionalString(value, else: .invalidLocalID) else { return nil }
        guard (1...128).contains(id.count), id.displaySafe == id else {
            throw .invalidLocalID
        }
        return id
    }

    /// A display name or photo URL: at most 2048 characters, no control characters (they reach ID tokens and emails).
    static func profileText(_ value: JSONValue?) throws(SignInError) -> String? {
        guard let text = try IdentityToolkitController.optionalString(value, else: .invalidProfileAttribute) else { return nil }
        guard text.count <= 2048, !text.containsControlCharacters else {
            throw .invalidProfileAttribute
        }
        return text
    }

    /// The account a request is about: the ID token's own, or for an admin any `localId`.
    private func subject(of body: JSONValue, _ context: AppRequestContext) async throws -> (Account, AccountActor) {
        if context.isAdmin, body["idToken"] == nil {
            guard let id = body["localId"]?.stringValue, !id.isEmpty else { throw SignInError.userNotFound }
            guard let user = try await lookup.users(ids: [id], emails: []).first else { throw SignInError.userNotFound }
            return (user.account, .admin)
        }
        guard let idToken = try IdentityToolkitController.optionalString(body["idToken"], else: .invalidIDToken), !idToken.isEmpty else {
            throw SignInError.invalidIDToken
        }
        let (account, claims) = try await lookup.authenticate(idToken: idToken)
        return (account, .user(claims))
    }
}
