import Foundation
import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// `accounts:update` and `accounts:delete`: by the signed-in user (`idToken`) or an admin (`localId`); the admin's
/// `accounts:batchDelete` (`adminEndpoints`); and the Latchkey extension `accounts:cancelRecoverEmail`, by the signed-in
/// user only.
struct AccountUpdatesController {
    let administration: AccountAdministration
    let undoCancellation: UndoCancellation

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:update", use: update)
            .post("accounts:delete", use: delete)
            .post("accounts:cancelRecoverEmail", use: cancelRecoverEmail)
    }

    /// Admin routes: only a request with an admin token gets an `AdminRequestContext`.
    var adminEndpoints: RouteCollection<AdminRequestContext> {
        RouteCollection(context: AdminRequestContext.self)
            .post("accounts:batchDelete", use: batchDelete)
    }

    /// With `oobCode`, applies an emailed code; otherwise changes the account (`AccountAdministration.update`).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> SetAccountInfoResponse {
        let body = try await RequestBody.decode(SetAccountInfoRequest.self, from: request, context: context)
        let (updated, session) = try await administration.update(
            body, language: context.language(of: request), by: context.caller(of: request), logger: context.logger)
        return SetAccountInfoResponse(updated, session: session)
    }

    /// Firebase's admin `accounts` create (`POST /v1/projects/{projectId}/accounts`), used by the Admin SDKs'
    /// `create_user`: an account with any of email, password, `emailVerified`, `displayName`, `photoUrl`, `disabled`.
    @Sendable func createAccount(_ request: Request, context: AdminRequestContext) async throws -> SetAccountInfoResponse {
        let body = try await RequestBody.decode(CreateAccountRequest.self, from: request, context: context)
        let email = body.email == nil ? nil : try EmailAddress(requestField: body.email)
        let creation = try AccountAdministration.Creation(
            localId: body.localId, email: email, password: body.password, displayName: body.displayName, photoURL: body.photoUrl,
            isDisabled: body.disabled, isEmailVerified: body.emailVerified, phoneNumber: body.phoneNumber,
            passwordPolicy: administration.passwordPolicy)
        let user = try await administration.create(creation, requester: context.requester(of: request), logger: context.logger)
        return SetAccountInfoResponse(user, session: nil)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> DeleteAccountResponse {
        let body = try await RequestBody.decode(DeleteAccountRequest.self, from: request, context: context)
        try await administration.delete(body, by: context.caller(of: request), logger: context.logger)
        return DeleteAccountResponse()
    }

    /// Firebase's `accounts:batchDelete` (the Admin SDKs' `delete_users`): the uids not deleted come back in `errors`,
    /// each with its index and Google's `CODE : detail` message; the answer is `{}` when there are none.
    @Sendable func batchDelete(_ request: Request, context: AdminRequestContext) async throws -> BatchDeleteAccountsResponse {
        let body = try await RequestBody.decode(BatchDeleteAccountsRequest.self, from: request, context: context)
        let refusals = try await administration.delete(
            ids: body.localIds ?? [], force: body.force ?? false, requester: context.requester(of: request), logger: context.logger)
        let errors = refusals.map { refusal in
            BatchDeleteAccountsResponse.BatchDeleteErrorInfo(index: refusal.index, localId: refusal.localID, message: refusal.reason.message)
        }
        return BatchDeleteAccountsResponse(errors: errors.isEmpty ? nil : errors)
    }

    /// The owner, signed in recently with both factors, cancels the pending undos of the account's address changes.
    @Sendable func cancelRecoverEmail(_ request: Request, context: AppRequestContext) async throws -> CancelRecoverEmailResponse {
        let body = try await RequestBody.decode(CancelRecoverEmailRequest.self, from: request, context: context)
        let (account, cancelled) = try await undoCancellation.cancel(body, requester: context.requester(of: request), logger: context.logger)
        return CancelRecoverEmailResponse(localId: account.id, email: account.email?.value, cancelledUndos: cancelled)
    }
}
