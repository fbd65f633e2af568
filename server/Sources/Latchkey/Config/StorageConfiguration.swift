import Foundation

/// Where state is kept.
///
/// - `storage.kind` (`"sqlite"` or `"postgres"`, default `"sqlite"`): the embedded SQLite file, or a PostgreSQL database
///   that several instances share.
/// - `storage.sqlite.path` (string, default `"data/latchkey.sqlite"`): the SQLite database file; its
///   directory is created when missing.
/// - `storage.sqlite.synchronous` (`"normal"` or `"full"`, default `"normal"`): SQLite's `synchronous` level in WAL
///   mode. `normal` never corrupts the file but a power cut may lose the last commits; `full` syncs every commit.
/// - `storage.postgres.*`: see `PostgresSettings`; required when `storage.kind` is `"postgres"`.
package struct StorageConfiguration: Sendable {
    /// Which store holds the state.
    package enum Kind: String, Sendable, CaseIterable {
        case sqlite
        case postgres
    }

    /// SQLite's durability level for commits.
    package enum Synchronous: String, Sendable, CaseIterable {
        case normal
        case full
    }

    package var kind: Kind
    package var sqlitePath: String
    package var synchronous: Synchronous
    package var postgres: PostgresSettings?

    init(_ read: inout ConfigSectionReader, environment: [String: String]) {
        kind = read.choice("storage.kind", default: Kind.sqlite)
        sqlitePath = read.string("storage.sqlite.path") ?? "data/latchkey.sqlite"
        synchronous = read.choice("storage.sqlite.synchronous", default: Synchronous.normal)
        if kind == .postgres {
            postgres = PostgresSettings(&read, environment: environment)
        } else {
            // Kept for later is fine, as long as its keys are known.
            read.learnKeys { _ = PostgresSettings(&$0, environment: environment) }
        }
    }
}
