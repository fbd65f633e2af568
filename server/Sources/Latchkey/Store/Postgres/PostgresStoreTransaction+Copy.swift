import Foundation
import LatchkeyDomain
import PostgresNIO

/// Rows as stored, for `latchkey copy`: booleans are BOOLEAN, blobs BYTEA. A BIGSERIAL's sequence does not see ids
/// inserted explicitly, so each insert moves it past the largest copied id, or new rows would collide with copied ones.
extension PostgresStoreTransaction: RowCopyStore {
    func rows(of table: CopiedTable, after key: [CopiedValue]?, limit: Int) async throws -> [[CopiedValue]] {
        let sql = table.selectPage(afterKey: key != nil, limit: limit) { "$\($0 + 1)" }
        let query = PostgresQuery(unsafeSQL: sql, binds: try Self.bindings(key ?? []))
        return try await connection.checkedQuery(query, logger: logger).collect().map { row in
            try zip(table.columns, row).map { column, cell in try Self.copiedValue(cell, of: column, in: table) }
        }
    }

    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) async throws {
        guard !rows.isEmpty else { return }
        let sql = table.insert(rows: rows.count) { "$\($0 + 1)" }
        // A row another transaction inserted since this one looked (an import racing a sign-up) is a conflict, which
        // the importer answers by reading again.
        try await executeGuarded(PostgresQuery(unsafeSQL: sql, binds: try Self.bindings(Array(rows.joined()))), conflict: Self.accountConflict)
        if table.hasGeneratedKey {
            try await execute(
                PostgresQuery(unsafeSQL: "SELECT setval(pg_get_serial_sequence('\(table.name)', 'id'), (SELECT max(id) FROM \(table.name)))"))
        }
    }

    func rowCount(of table: CopiedTable) async throws -> Int {
        let count = try await connection.checkedQuery(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table.name)"), logger: logger).collect()
        return try count.first?.decode(Int.self) ?? 0
    }

    private static func copiedValue(_ cell: PostgresCell, of column: CopiedTable.Column, in table: CopiedTable) throws -> CopiedValue {
        do {
            switch column.kind {
            case .text: return try cell.decode(String?.self).map(CopiedValue.text) ?? .null
            case .integer: return try cell.decode(Int64?.self).map(CopiedValue.integer) ?? .null
            case .real: return try cell.decode(Double?.self).map(CopiedValue.real) ?? .null
            case .boolean: return try cell.decode(Bool?.self).map(CopiedValue.boolean) ?? .null
            case .blob, .sealed: return try cell.decode(Data?.self).map(CopiedValue.blob) ?? .null
            }
        } catch is PostgresDecodingError {
            throw UnexpectedStoredValue(table, column)
        }
    }

    private static func bindings(_ values: [CopiedValue]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .text(let text): bindings.append(text)
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .boolean(let boolean): bindings.append(boolean)
            case .blob(let data): try bindings.append(data)
            }
        }
        return bindings
    }
}
