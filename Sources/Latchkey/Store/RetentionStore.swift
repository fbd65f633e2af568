import Foundation

/// Removes rows whose time is over (`RetentionPolicy`).
package protocol RetentionStore {
    /// Deletes at most `limit` rows of `rows` whose time ended before `cutoff`; returns how many.
    func deleteExpired(_ rows: ExpiringRows, before cutoff: Date, limit: Int) async throws -> Int
}
