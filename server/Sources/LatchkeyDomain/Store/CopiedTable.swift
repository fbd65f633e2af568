/// One table `latchkey copy` moves between stores, described once for both: the two schemas share table and column
/// names, and differ only in how a kind of value is spelled (INTEGER 0/1 or BOOLEAN, BLOB or BYTEA, AUTOINCREMENT or
/// BIGSERIAL).
package struct CopiedTable: Sendable, Hashable, CustomStringConvertible {
    /// What a column holds, which says how each store reads and writes it.
    package enum Kind: Sendable, Hashable {
        case text
        case integer
        /// Times, as Unix seconds.
        case real
        case boolean
        case blob
        /// A value sealed under the server secret for `purpose`: copied as it is, and opened once before a copy to prove
        /// that the target's secret is the one it was sealed with.
        case sealed(ServerSecret.SealPurpose)
    }

    /// A column and its kind.
    package struct Column: Sendable, Hashable {
        package let name: String
        package let kind: Kind
    }

    package let name: String
    /// Every column, in the order rows hold their values.
    package let columns: [Column]
    /// The primary key's columns: pages are read in their order, each after the last key of the one before.
    package let key: [String]

    init(_ name: String, key: [String], _ columns: [(String, Kind)]) {
        self.name = name
        self.key = key
        self.columns = columns.map { Column(name: $0.0, kind: $0.1) }
    }

    package var description: String { name }

    /// Where the key's columns sit in a row.
    package var keyIndexes: [Int] {
        key.compactMap { name in columns.firstIndex { $0.name == name } }
    }

    /// Whether the store numbers new rows itself (SQLite's rowid, PostgreSQL's BIGSERIAL): after a copy, PostgreSQL's
    /// sequence must be moved past the copied ids.
    package var hasGeneratedKey: Bool {
        key == ["id"] && columns.first { $0.name == "id" }?.kind == .integer
    }
}
