import Foundation
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
    package struct Report: Sendable, Equatable {
        package var imported = 0
        package var unchanged = 0
        /// Each refused user: its place in the file (from 1), its uid, and why.
        package var refused: [(line: Int, localID: String, reason: String)] = []

        package static func == (left: Report, right: Report) -> Bool {
            left.imported == right.imported && left.unchanged == right.unchanged
                && left.refused.map { "\($0.line) \($0.localID) \($0.reason)" } == right.refused.map { "\($0.line) \($0.localID) \($0.reason)" }
        }
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
        for start in stride(from: 0, to: checked.count, by: UploadAccountRequest.maximumUsers) {
            let batch = checked[start..<min(start + UploadAccountRequest.maximumUsers, checked.count)]
            var outcomes = try await importer.importUsers(batch.compactMap { try? $0.get() }, existing: .keepIfImported).makeIterator()
            for (index, user) in zip(batch.indices, batch) {
                let outcome: AccountImporter.Outcome =
                    switch user {
                    case .failure(let refusal): .refused(refusal)
                    case .success: outcomes.next() ?? .refused(.invalid("not imported"))
                    }
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
