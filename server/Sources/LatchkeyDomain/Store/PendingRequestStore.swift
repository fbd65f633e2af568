import Foundation

/// Pending requests (sign-in links and the other email actions), found by the keyed hash of their code.
package protocol PendingRequestStore {
    func insert(_ request: PendingRequest) async throws
    /// Drops the oldest unused requests of `action` for `email` beyond the newest `count`.
    func dropOutstandingRequests(for email: EmailAddress, action: EmailAction, keepingNewest count: Int) async throws
    /// Marks every unused request of `action` for `email` used, so none of their codes works any more.
    func spendOutstandingRequests(for email: EmailAddress, action: EmailAction, at now: Date) async throws
    /// Marks every unused request of the account used, but its undos (`recoverEmail`) issued before `undoID` (with
    /// `Int64.max`, every undo; with nil, none).
    func spendOutstandingRequests(accountID: String, sparingUndosBefore undoID: Int64?, at now: Date) async throws
    /// Marks every live undo (`recoverEmail`) of the account used, so none of their links works any more; returns how
    /// many it cancelled.
    func cancelUndos(accountID: String, at now: Date) async throws -> Int
    /// Whether a live undo of an address change (`recoverEmail`) of another, enabled account than `accountID` holds
    /// `email`: the address waits for its owner to take it back.
    func isAwaitingUndo(_ email: EmailAddress, byAnotherThan accountID: String, at now: Date) async throws -> Bool
    /// Of `emails`, those a live undo of an enabled account holds, with the accounts that may take them back (imports,
    /// many at a time).
    func undoOwners(of emails: [EmailAddress], at now: Date) async throws -> [EmailAddress: Set<String>]
    func pendingRequest(codeHash: Data) async throws -> PendingRequest?
    /// The newest request whose typed code (with its address) has this keyed hash.
    func pendingRequest(typedCodeHash: Data) async throws -> PendingRequest?
    /// Counts a wrong typed code for `email` against the typed code of every request of the address still live at `now`,
    /// so a few wrong codes kill them all; the links stay.
    func recordTypedCodeMiss(for email: EmailAddress, at now: Date) async throws
    /// The single conditional UPDATE that makes a code single-use: true only for the one caller that finds it unused,
    /// unexpired and not killed by mismatches.
    func consumePendingRequest(id: Int64, at now: Date) async throws -> Bool
    func recordMismatch(pendingRequestID: Int64) async throws
}
