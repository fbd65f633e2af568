/// Where state is kept.
///
/// - `storage.sqlite.path` (string, default `"data/latchkey.sqlite"`): the SQLite database file; its
///   directory is created when missing.
/// - `storage.sqlite.synchronous` (`"normal"` or `"full"`, default `"normal"`): SQLite's `synchronous` level in WAL
///   mode. `normal` never corrupts the file but a power cut may lose the last commits; `full` syncs every commit.
package struct StorageConfiguration: Sendable {
    /// SQLite's durability level for commits.
    package enum Synchronous: String, Sendable, CaseIterable {
        case normal
        case full
    }

    package var sqlitePath: String
    package var synchronous: Synchronous

    init(_ read: inout ConfigSectionReader) {
        sqlitePath = read.string("storage.sqlite.path") ?? "data/latchkey.sqlite"
        synchronous = read.choice("storage.sqlite.synchronous", default: Synchronous.normal)
    }
}
