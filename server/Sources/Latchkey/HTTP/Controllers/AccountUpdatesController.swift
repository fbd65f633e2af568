import Foundation
import Hummingbird
import LatchkeyWire

/// `accounts:update` and `accounts:delete`: by the signed-in user (`idToken`) or an admin (`localId`); and the Latchkey
/// extension `accounts:cancelRecoverEmail`, by the signed-in user only.
struct AccountUpdatesController {
    let administration: AccountAdministration
    let undoCancellation: UndoCancellation
    let lookup: AccountLookup
    let actionCodes: ActionCodes

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:update", use: update)
            .post("accounts:delete", use: delete)
            .post("accounts:cancelRecoverEmail", use: cancelRecoverEmail)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> SetAccountInfoResponse {
        let body = try await RequestBody.decode(SetAccountInfoRequest.self, from: request, context: context)
        if let code = body.oobCode, !code.isEmpty {
            // Firebase's applyActionCode: the code alone says what changes, and for whom.
            let applied = try await actionCodes.apply(try OOBCode.requestField(code), by: context.caller(of: request), logger: context.logger)
            return SetAccountInfoResponse(applied.user, session: nil)
        }
        let (account, actor) = try await subject(idToken: body.idToken, localId: body.localId, context)
        var changes = AccountChanges()
        changes.language = context.language(of: request)
        if let password = body.password {
            changes.password = try PasswordHasher.validate(password)
        }
        changes.deletedProviders = Set(body.deleteProvider ?? [])
        if body.email != nil { changes.email = try EmailAddress(requestField: body.email) }
        changes.displayName = try ProfileText.checked(body.displayName)
        changes.photoURL = try ProfileText.checked(body.photoUrl)
        let deleted = Set(body.deleteAttribute ?? [])
        changes.deletesDisplayName = deleted.contains("DISPLAY_NAME")
        changes.deletesPhotoURL = deleted.contains("PHOTO_URL")
        changes.validSince = body.validSince.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        if case .admin = actor {
            changes.isDisabled = body.disableUser
            changes.isEmailVerified = body.emailVerified
            if let json = body.customAttributes { changes.customClaims = .some(try CustomClaims.parse(json)) }
            if let mfa = body.mfa {
                // TOTP factors are enrolled by their owners only; an admin can remove them (a lost phone).
                guard mfa.enrollments?.isEmpty ?? true else {
                    throw SignInError.unsupportedSecondFactor("Second factors are enrolled by their owners; an admin can only remove them all.")
                }
                changes.removesSecondFactors = true
            }
        }
        let (updated, session) = try await administration.update(
            account, with: changes, by: actor, requester: context.requester(of: request), logger: context.logger)
        return SetAccountInfoResponse(updated, session: session)
    }

    /// Firebase's admin `accounts` create (`POST /v1/projects/{projectId}/accounts`), used by the Admin SDKs'
    /// `create_user`: an account with any of email, password, `emailVerified`, `displayName`, `photoUrl`, `disabled`.
    @Sendable func createAccount(_ request: Request, context: AdminRequestContext) async throws -> SetAccountInfoResponse {
        let body = try await RequestBody.decode(CreateAccountRequest.self, from: request, context: context)
        let email = body.email == nil ? nil : try EmailAddress(requestField: body.email)
        let creation = try AccountAdministration.Creation(
            localId: body.localId, email: email, password: body.password, displayName: body.displayName, photoURL: body.photoUrl,
            isDisabled: body.disabled, isEmailVerified: body.emailVerified)
        let user = try await administration.create(creation, requester: context.requester(of: request), logger: context.logger)
        return SetAccountInfoResponse(user, session: nil)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> DeleteAccountResponse {
        let body = try await RequestBody.decode(DeleteAccountRequest.self, from: request, context: context)
        let (account, actor) = try await subject(idToken: body.idToken, localId: body.localId, context)
        try await administration.delete(account, by: actor, requester: context.requester(of: request), logger: context.logger)
        return DeleteAccountResponse()
    }

    /// The owner, signed in recently with both factors, cancels the pending undos of the account's address changes.
    @Sendable func cancelRecoverEmail(_ request: Request, context: AppRequestContext) async throws -> CancelRecoverEmailResponse {
        let body = try await RequestBody.decode(CancelRecoverEmailRequest.self, from: request, context: context)
        let (account, cancelled) = try await undoCancellation.cancel(body, requester: context.requester(of: request), logger: context.logger)
        return CancelRecoverEmailResponse(localId: account.id, email: account.email?.value, cancelledUndos: cancelled)
    }

    /// The account a request is about: the ID token's own, or for an admin without `idToken` any `localId`.
    private func subject(idToken: String?, localId: String?, _ context: AppRequestContext) async throws -> (Account, AccountActor) {
        if context.admin != nil, idToken == nil {
            guard let localId, !localId.isEmpty else { throw SignInError.userNotFound }
            guard let account = try await lookup.users(ids: [localId], emails: []).first?.account else { throw SignInError.userNotFound }
            return (account, .admin)
        }
        guard let idToken, !idToken.isEmpty else { throw SignInError.invalidIDToken }
        let (account, claims) = try await lookup.authenticate(idToken: idToken)
        return (account, .user(claims))
    }
}
