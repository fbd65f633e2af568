import Foundation
import NIOPosix

/// Stores users made by another system (`accounts:batchCreate`, `latchkey import`): each user whole or not at all,
/// many users to a transaction, and a few statements for all of them rather than a few each.
///
/// Nothing is hashed: imported password hashes are sealed as they are and replaced at each user's first sign-in.
package struct AccountImporter: Sendable {
    let store: any Store
    let hasher: PasswordHasher
    let clock: any WallClock

    package init(store: any Store, hasher: PasswordHasher, clock: any WallClock) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
    }

    /// What to do with a user whose id an account already has.
    package enum ExistingAccounts: Sendable {
        /// Refuse the user (`ImportRefusal.idTaken`): Firebase's default.
        case refuse
        /// Replace the account: it is deleted, with its identities, factors and sessions, and the user imported.
        case overwrite
        /// Count the user as imported before when the account matches it (`ImportedUser.isImported(as:)`), and refuse
        /// it otherwise: what makes importing a file twice change nothing.
        case keepIfImported
    }

    /// What became of one user.
    package enum Outcome: Sendable, Equatable {
        case imported
        /// Imported before (`ExistingAccounts.keepIfImported`).
        case unchanged
        case refused(ImportRefusal)
    }

    /// Imports the users that passed their checks, and says what became of each of `checked`, in its order: a user
    /// that failed them is refused for that.
    package func importUsers(
        _ checked: some Collection<Result<ImportedUser, ImportRefusal>>, existing: ExistingAccounts, requester: RequesterSummary = RequesterSummary()
    ) async throws -> [Outcome] {
        var outcomes = try await importUsers(checked.compactMap { try? $0.get() }, existing: existing, requester: requester).makeIterator()
        return checked.map { user in
            switch user {
            case .failure(let refusal): .refused(refusal)
            case .success: outcomes.next() ?? .refused(.invalid("not imported"))
            }
        }
    }

    /// Imports `users` in one transaction and says, in their order, what became of each. A user whose id, address or
    /// provider's user id an earlier user of the same call took is refused like one an account took.
    package func importUsers(
        _ users: [ImportedUser], existing: ExistingAccounts, requester: RequesterSummary = RequesterSummary()
    ) async throws -> [Outcome] {
        // A thousand seals take milliseconds of CPU: off the cooperative pool.
        let hasher = hasher
        let sealed = try await NIOThreadPool.singleton.runIfActive { try users.map { try $0.password.map(hasher.stored) } }
        let now = clock.now
        var attempt = 1
        while true {
            do {
                return try await importUsers(users, sealed: sealed, existing: existing, requester: requester, at: now)
            } catch is AccountConflict {
                // Another writer took an id, address or identity after this transaction looked (PostgreSQL): look again.
                guard attempt < 3 else { throw StoreUnavailable("an import kept clashing with concurrent writes") }
                attempt += 1
            }
        }
    }

    private func importUsers(
        _ users: [ImportedUser], sealed: [String?], existing: ExistingAccounts, requester: RequesterSummary, at now: Date
    ) async throws -> [Outcome] {
        try await store.write { transaction in
            let found = try await transaction.accounts(
                ids: users.map(\.account.id), emails: users.compactMap(\.account.email), phoneNumbers: users.compactMap(\.account.phoneNumber))
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var emailOwners = Dictionary(found.compactMap { account in account.email.map { ($0, account.id) } }, uniquingKeysWith: { first, _ in first })
            var phoneOwners = Dictionary(
                found.compactMap { account in account.phoneNumber.map { ($0, account.id) } }, uniquingKeysWith: { first, _ in first })
            let taken = try await transaction.identities(keys: users.flatMap { $0.identities.map(\.key) })
            var identityOwners = Dictionary(taken.map { ($0.key, $0.accountID) }, uniquingKeysWith: { first, _ in first })
            let undoOwners = try await transaction.undoOwners(of: users.compactMap(\.account.email), at: now)
            let storedIdentities = existing == .keepIfImported && !byID.isEmpty
                ? Dictionary(grouping: try await transaction.identities(accountIDs: Array(byID.keys)), by: \.accountID) : [:]
            var claimedIDs = Set<String>()
            var replaced: [String] = []
            var accounts: [Account] = []
            var identities: [Identity] = []
            var phoneFactors: [SecondFactor] = []
            var outcomes: [Outcome] = []
            for (user, hash) in zip(users, sealed) {
                let id = user.account.id
                let stored = byID[id]
                var outcome: Outcome = .imported
                if !claimedIDs.insert(id).inserted {
                    outcome = .refused(.invalid("localId appears twice"))
                } else if let stored {
                    switch existing {
                    case .refuse:
                        outcome = .refused(.idTaken)
                    case .overwrite:
                        break
                    case .keepIfImported:
                        let isSame = user.isImported(as: stored, identities: storedIdentities[id] ?? [])
                        outcome = isSame ? .unchanged : .refused(.idTakenWithOtherData)
                    }
                }
                if outcome == .imported, let email = user.account.email {
                    // An address another account left by a change whose undo is still live stays that account's owner's.
                    let owner = emailOwners[email]
                    if let owner, owner != id {
                        outcome = .refused(.emailTaken)
                    } else if owner == nil, undoOwners[email]?.contains(where: { $0 != id }) == true {
                        outcome = .refused(.emailTaken)
                    }
                }
                if outcome == .imported, let number = user.account.phoneNumber, let owner = phoneOwners[number], owner != id {
                    outcome = .refused(.phoneNumberTaken)
                }
                if outcome == .imported, user.identities.contains(where: { identityOwners[$0.key].map { $0 != id } ?? false }) {
                    outcome = .refused(.identityTaken)
                }
                outcomes.append(outcome)
                guard outcome == .imported else { continue }
                if stored != nil {
                    // The replaced account's address and identities go with it.
                    replaced.append(id)
                    emailOwners = emailOwners.filter { $0.value != id }
                    phoneOwners = phoneOwners.filter { $0.value != id }
                    identityOwners = identityOwners.filter { $0.value != id }
                }
                var account = user.account
                account.passwordHash = hash
                accounts.append(account)
                identities += user.identities
                phoneFactors += user.secondFactors
                if let email = account.email { emailOwners[email] = id }
                if let number = account.phoneNumber { phoneOwners[number] = id }
                for identity in user.identities { identityOwners[identity.key] = id }
            }
            for id in replaced {
                try await transaction.deleteAccount(id: id, at: now)
                try await transaction.record(
                    AuditEvent(.accountDeleted, at: now, accountID: id, email: byID[id]?.email, requester: requester, detail: "replaced by an import"))
            }
            try await transaction.insert(accounts, identities: identities, phoneFactors: phoneFactors)
            return outcomes
        }
    }
}
