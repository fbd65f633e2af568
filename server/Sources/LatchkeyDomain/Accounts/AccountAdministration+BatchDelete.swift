import Foundation
import Logging

extension AccountAdministration {
    /// The most uids one `accounts:batchDelete` takes: Firebase's (firebase-admin-python `_user_mgt.py`
    /// `delete_users`, firebase-admin-node's `MAX_DELETE_ACCOUNTS_BATCH_SIZE`, firebase-tools' emulator `batchDelete`),
    /// which also bounds the one write a batch is.
    static let batchDeleteLimit = 1_000

    /// A uid of a batch that was not deleted, with its index in the request and why.
    package struct BatchDeleteRefusal: Sendable, Equatable {
        package let index: Int
        package let localID: String
        package let reason: SignInError
    }

    /// `accounts:batchDelete` (admin): deletes each account of `ids` as `delete` deletes one (`StoreTransaction.delete`:
    /// identities, second factors, sessions, one `account_deleted` audit event each), all in one write, so a batch is
    /// deleted whole or not at all. As in firebase-tools' emulator (`batchDelete` in `src/emulator/auth/operations.ts`):
    /// an unknown uid is no error, and without `force` an enabled account stays and is reported (`NOT_DISABLED`), the
    /// API's contract being that only disabled accounts are deleted then. No uid, or more than `batchDeleteLimit`, is
    /// `LOCAL_ID_LIST_EXCEEDS_LIMIT`.
    package func delete(ids: [String], force: Bool, requester: RequesterSummary, logger: Logger) async throws -> [BatchDeleteRefusal] {
        guard !ids.isEmpty, ids.count <= Self.batchDeleteLimit else { throw SignInError.localIDListExceedsLimit }
        let now = clock.now
        let (refusals, deleted) = try await store.write { transaction in
            var refusals: [BatchDeleteRefusal] = []
            var deleted = 0
            for (index, id) in ids.enumerated() {
                guard let account = try await transaction.lockedAccount(id: id) else { continue }
                guard force || account.isDisabled else {
                    refusals.append(BatchDeleteRefusal(index: index, localID: id, reason: .notDisabled))
                    continue
                }
                try await transaction.delete(account, by: .admin(accountID: id), requester: requester, at: now)
                deleted += 1
            }
            return (refusals, deleted)
        }
        logger.debug("Accounts deleted in a batch", metadata: ["deleted": "\(deleted)", "refused": "\(refusals.count)"])
        return refusals
    }
}
