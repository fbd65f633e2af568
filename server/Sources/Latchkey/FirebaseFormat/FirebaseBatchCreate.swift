import LatchkeyDomain
import LatchkeyWire
import NIOPosix

/// Firebase's `accounts:batchCreate` as one call: the batch checked as Firebase checks it (no users, too many, a uid
/// twice, with `sanityCheck` an address or a provider's user id twice, the hash configuration), which refuses it whole;
/// then its users imported, each whole or refused on its own (`AccountImporter`).
package struct FirebaseBatchCreate: Sendable {
    let importer: AccountImporter
    let clock: any WallClock

    package init(importer: AccountImporter, clock: any WallClock) {
        self.importer = importer
        self.clock = clock
    }

    /// Each user's outcome, in the request's order.
    package func create(_ request: UploadAccountRequest, requester: RequesterSummary) async throws -> [AccountImporter.Outcome] {
        let users = request.users ?? []
        guard !users.isEmpty else { throw ImportBatchRefusal("MISSING_USER_ACCOUNT") }
        guard users.count <= UploadAccountRequest.maximumUsers else {
            throw ImportBatchRefusal("MAXIMUM_USER_COUNT_EXCEEDED : at most \(UploadAccountRequest.maximumUsers) users per request")
        }
        let now = clock.now
        // A thousand users' checks (base64, hash formats) take milliseconds too.
        let checked = try await NIOThreadPool.singleton.runIfActive {
            try Self.refuseDuplicates(request)
            return request.importedUsers(hashing: try request.hashConfig(), at: now)
        }
        return try await importer.importUsers(checked, existing: request.allowOverwrite == true ? .overwrite : .refuse, requester: requester)
    }

    /// Firebase refuses a batch that names a uid twice; with `sanityCheck`, also one that gives an address or a
    /// provider's user id twice (without it, the later user is refused alone).
    private static func refuseDuplicates(_ request: UploadAccountRequest) throws(ImportBatchRefusal) {
        let users = request.users ?? []
        var ids = Set<String>()
        for id in users.compactMap(\.localId) where !id.isEmpty && !ids.insert(id).inserted {
            throw ImportBatchRefusal("DUPLICATE_LOCAL_ID : \(id)")
        }
        guard request.sanityCheck == true else { return }
        var emails = Set<EmailAddress>()
        for email in users.compactMap({ $0.email.flatMap(EmailAddress.init) }) where !emails.insert(email).inserted {
            throw ImportBatchRefusal("DUPLICATE_EMAIL : \(email.value)")
        }
        var keys = Set<[String]>()
        for provider in users.flatMap({ $0.providerUserInfo ?? [] }) {
            guard let providerID = provider.providerId, let rawID = provider.rawId else { continue }
            guard keys.insert([providerID, rawID]).inserted else {
                throw ImportBatchRefusal("DUPLICATE_RAW_ID : Provider id(\(providerID)), Raw id(\(rawID))")
            }
        }
    }
}
