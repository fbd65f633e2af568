import Foundation

/// Removes rows whose time is over (`RetentionPolicy`).
package protocol RetentionStore {
    /// Deletes at most `limit` rows of `rows` whose time ended before `cutoff`; returns how many.
    func deleteExpired(_ rows: ExpiringRows, before cutoff: Date, limit: Int) async throws -> Int
    /// Whether this transaction may sweep: false while another instance's sweep holds the turn, which its transaction
    /// keeps until it ends, so one sweep runs at a time however many instances share the store.
    func takeSweepTurn() async throws -> Bool
}
