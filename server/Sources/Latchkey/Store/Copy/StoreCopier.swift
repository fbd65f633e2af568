import Foundation
import LatchkeyDomain
import Logging

/// Copies every table of one store into another, empty one, row for row (`latchkey copy`): how a deployment moves
/// from SQLite to PostgreSQL, or back.
///
/// The source is read in pages in key order within one snapshot, so the copy is consistent even if something writes
/// meanwhile (the instances should be stopped all the same: what they write after the snapshot is not copied). Each
/// page is inserted into the target in a transaction of its own. Rows keep their ids, hashes and sealed values, so
/// codes, refresh tokens and queued mail issued before the copy work on the target, provided it runs with the same
/// server secret, which is checked before anything is written.
package struct StoreCopier: Sendable {
    /// How many rows a table holds, or had copied.
    package struct TableCount: Sendable, Equatable {
        package let table: CopiedTable
        package let rows: Int
    }

    let source: any Store
    let target: any Store
    /// The secret the source runs with.
    let sourceSecret: ServerSecret
    /// The secret the target will run with: it must be the source's, and the source's sealed values must open with it.
    let secret: ServerSecret
    /// Rows per page read and per insert.
    let pageSize: Int
    let logger: Logger

    package init(
        from source: any Store, secret sourceSecret: ServerSecret, to target: any Store, secret: ServerSecret, pageSize: Int = 500,
        logger: Logger
    ) {
        self.source = source
        self.target = target
        self.sourceSecret = sourceSecret
        self.secret = secret
        self.pageSize = pageSize
        self.logger = logger
    }

    /// Copies every table and returns how many rows each had; refuses, writing nothing, a target that holds any row,
    /// two different secrets, or a source whose sealed values do not open with the target's secret.
    package func copy() async throws -> [TableCount] {
        // Every key derives from the secret, so two secrets that hash a probe alike are the same secret.
        let probe = "latchkey copy"
        guard sourceSecret.hash(probe, for: .linkCode) == secret.hash(probe, for: .linkCode) else { throw StoreCopyRefusal.secretsDiffer }
        let occupied = try await Self.rowCounts(of: target).filter { $0.rows > 0 }
        guard occupied.isEmpty else { throw StoreCopyRefusal.targetNotEmpty(occupied) }
        return try await source.readSnapshot { [self] snapshot in
            try await checkSealedValues(in: snapshot)
            var counts: [TableCount] = []
            for table in CopiedTable.all {
                counts.append(TableCount(table: table, rows: try await copy(table, from: snapshot)))
            }
            return counts
        }
    }

    /// How many rows each copied table of `store` holds.
    package static func rowCounts(of store: any Store) async throws -> [TableCount] {
        try await store.readSnapshot { snapshot in
            var counts: [TableCount] = []
            for table in CopiedTable.all {
                counts.append(TableCount(table: table, rows: try await snapshot.rowCount(of: table)))
            }
            return counts
        }
    }

    private func copy(_ table: CopiedTable, from snapshot: any StoreTransaction) async throws -> Int {
        var key: [CopiedValue]?
        var copied = 0
        while true {
            let page = try await snapshot.rows(of: table, after: key, limit: pageSize)
            guard let last = page.last else { break }
            try await target.write { try await $0.insert(page, into: table) }
            copied += page.count
            key = table.keyIndexes.map { last[$0] }
            if page.count < pageSize { break }
        }
        logger.info("Table copied", metadata: ["table": "\(table.name)", "rows": "\(copied)"])
        return copied
    }

    /// Opens the first sealed value of each kind in the source's first pages (a signing key, a queued message) with the
    /// target's secret: one sealed under another secret means the target would sign nothing and deliver nothing.
    private func checkSealedValues(in snapshot: any StoreTransaction) async throws {
        for table in CopiedTable.all {
            for (index, column) in table.columns.enumerated() {
                guard case .sealed(let purpose) = column.kind else { continue }
                let page = try await snapshot.rows(of: table, after: nil, limit: pageSize)
                let sealed = page.lazy.compactMap { row -> Data? in
                    if case .blob(let data) = row[index] { data } else { nil }
                }.first
                guard let sealed else { continue }
                do {
                    _ = try secret.open(sealed, for: purpose)
                } catch {
                    throw StoreCopyRefusal.sealedUnderAnotherSecret(table, column)
                }
            }
        }
    }
}
