import Hummingbird
import LatchkeyWire

/// Firebase's `accounts:batchCreate` (admin; the Admin SDKs' `import_users`): up to 1,000 accounts made elsewhere, with
/// their password hashes and providers. The users that can be imported are; each other one comes back in `error[]`
/// with its index and the reason. A mistake in the request itself (no users, too many, the hash configuration, a uid
/// twice) refuses the whole batch.
struct AccountImportController {
    let batchCreate: FirebaseBatchCreate

    /// Admin routes: only a request with an admin token gets an `AdminRequestContext`.
    var endpoints: RouteCollection<AdminRequestContext> {
        RouteCollection(context: AdminRequestContext.self)
            .post("accounts:batchCreate", use: batchCreate)
    }

    @Sendable func batchCreate(_ request: Request, context: AdminRequestContext) async throws -> UploadAccountResponse {
        let body = try await RequestBody.decodeLarge(UploadAccountRequest.self, from: request, context: context)
        let outcomes = try await batchCreate.create(body, requester: context.requester(of: request))
        let errors = outcomes.enumerated().compactMap { index, outcome -> UploadAccountResponse.UserError? in
            guard case .refused(let refusal) = outcome else { return nil }
            return .init(index: index, message: refusal.description)
        }
        context.logger.debug("Accounts imported", metadata: ["imported": "\(outcomes.count - errors.count)", "refused": "\(errors.count)"])
        return UploadAccountResponse(error: errors.isEmpty ? nil : errors)
    }
}
