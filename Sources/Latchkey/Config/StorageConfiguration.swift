/// Where state is kept.
///
/// - `storage.sqlite.path` (string, default `"data/latchkey.sqlite"`): the SQLite database file; its
///   directory is created when missing.
package struct StorageConfiguration: Sendable {
    package var sqlitePath: String

    init(_ read: inout ConfigSectionReader) {
        sqlitePath = read.string("storage.sqlite.path") ?? "data/latchkey.sqlite"
    }
}
