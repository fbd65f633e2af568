import Foundation
import LatchkeyDomain
import LatchkeyWire

/// `latchkey import --firebase`: a `firebase auth:export` file into the store, a thousand users to a transaction,
/// each user whole or not at all. Users imported before with the same data count as unchanged, so a second run
/// changes nothing; a user whose uid, address or provider's user id another account has is refused and listed.
package struct FirebaseImport: Sendable {
    let importer: AccountImporter
    let clock: any WallClock

    package init(importer: AccountImporter, clock: any WallClock) {
        self.importer = importer
        self.clock = clock
    }

    /// What the import did.
    package struct Report: Sendable {
        package var imported = 0
        package var unchanged = 0
        /// Each refused user: its place in the file (from 1), its uid, and why.
        package var refused: [(line: Int, localID: String, reason: String)] = []
    }

    /// Imports `file`'s users; `hashing` is required when any of them has a password hash. A bad hash configuration
    /// refuses the whole file before anything is written (`FirebaseHashConfig.Unreadable`).
    package func run(_ file: FirebaseExportFile, hashing: FirebaseHashConfig?) async throws -> Report {
        let request = file.uploadRequest(hashing: hashing)
        let config: PasswordHashConfig?
        do {
            config = try request.hashConfig()
        } catch {
            throw FirebaseHashConfig.Unreadable(description: error.message)
        }
        let checked = request.importedUsers(hashing: config, at: clock.now)
        var report = Report()
        for batch in checked.chunked(by: UploadAccountRequest.maximumUsers) {
            let outcomes = try await importer.importUsers(batch, existing: .keepIfImported)
            for (index, outcome) in zip(batch.indices, outcomes) {
                switch outcome {
                case .imported: report.imported += 1
                case .unchanged: report.unchanged += 1
                case .refused(let refusal): report.refused.append((index + 1, file.users[index].localId ?? "", refusal.description))
                }
            }
        }
        return report
    }
}
