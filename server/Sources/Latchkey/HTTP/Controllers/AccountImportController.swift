import Foundation
import Hummingbird
import LatchkeyWire
import NIOPosix

/// Firebase's `accounts:batchCreate` (admin; the Admin SDKs' `import_users`): up to 1,000 accounts made elsewhere, with
/// their password hashes and providers. The users that can be imported are; each other one comes back in `error[]`
/// with its index and the reason. A mistake in the request itself (no users, too many, the hash configuration, a uid
/// twice) refuses the whole batch.
struct AccountImportController {
    let importer: AccountImporter
    let clock: any WallClock

    /// Admin routes: only a request with an admin token gets an `AdminRequestContext`.
    var endpoints: RouteCollection<AdminRequestContext> {
        RouteCollection(context: AdminRequestContext.self)
            .post("accounts:batchCreate", use: batchCreate)
    }

    @Sendable func batchCreate(_ request: Request, context: AdminRequestContext) async throws -> UploadAccountResponse {
        let body = try await RequestBody.decodeLarge(UploadAccountRequest.self, from: request, context: context)
        let users = body.users ?? []
        guard !users.isEmpty else { throw APIError.invalidArgument("MISSING_USER_ACCOUNT") }
        guard users.count <= UploadAccountRequest.maximumUsers else {
            throw APIError.invalidArgument("MAXIMUM_USER_COUNT_EXCEEDED : at most \(UploadAccountRequest.maximumUsers) users per request")
        }
        let now = clock.now
        // A thousand users' checks (base64, hash formats) take milliseconds too.
        let checked = try await NIOThreadPool.singleton.runIfActive {
            try Self.refuseDuplicates(body)
            return body.importedUsers(hashing: try body.hashConfig(), at: now)
        }
        let outcomes = try await importer.importUsers(
            checked, existing: body.allowOverwrite == true ? .overwrite : .refuse, requester: context.requester(of: request))
        let errors = outcomes.enumerated().compactMap { index, outcome -> UploadAccountResponse.UserError? in
            guard case .refused(let refusal) = outcome else { return nil }
            return .init(index: index, message: refusal.description)
        }
        context.logger.debug("Accounts imported", metadata: ["imported": "\(users.count - errors.count)", "refused": "\(errors.count)"])
        return UploadAccountResponse(error: errors.isEmpty ? nil : errors)
    }

    /// Firebase refuses a batch that names a uid twice; with `sanityCheck`, also one that gives an address or a
    /// provider's user id twice (without it, the later user is refused alone).
    private static func refuseDuplicates(_ body: UploadAccountRequest) throws(APIError) {
        let users = body.users ?? []
        var ids = Set<String>()
        for id in users.compactMap(\.localId) where !id.isEmpty && !ids.insert(id).inserted {
            throw APIError.invalidArgument("DUPLICATE_LOCAL_ID : \(id)")
        }
        guard body.sanityCheck == true else { return }
        var emails = Set<EmailAddress>()
        for email in users.compactMap({ $0.email.flatMap(EmailAddress.init) }) where !emails.insert(email).inserted {
            throw APIError.invalidArgument("DUPLICATE_EMAIL : \(email.value)")
        }
        var keys = Set<[String]>()
        for provider in users.flatMap({ $0.providerUserInfo ?? [] }) {
            guard let providerID = provider.providerId, let rawID = provider.rawId else { continue }
            guard keys.insert([providerID, rawID]).inserted else { throw APIError.invalidArgument("DUPLICATE_RAW_ID : Provider id(\(providerID)), Raw id(\(rawID))") }
        }
    }
}
