import Foundation
import GRDB
import LatchkeyDomain

/// Rows as stored, for `latchkey copy`. Booleans are INTEGER 0 or 1; an AUTOINCREMENT table remembers the largest id
/// ever inserted, copied ones included, so new rows need nothing more.
extension SQLiteStoreTransaction: RowCopyStore {
    func rows(of table: CopiedTable, after key: [CopiedValue]?, limit: Int) async throws -> [[CopiedValue]] {
        let sql = table.selectPage(afterKey: key != nil, limit: limit) { _ in "?" }
        let arguments = StatementArguments((key ?? []).map(Self.databaseValue))
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            try zip(table.columns, row.databaseValues).map { column, value in try Self.copiedValue(value, of: column, in: table) }
        }
    }

    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) async throws {
        guard !rows.isEmpty else { return }
        let sql = table.insert(rows: rows.count) { _ in "?" }
        try db.execute(sql: sql, arguments: StatementArguments(rows.joined().map(Self.databaseValue)))
    }

    func rowCount(of table: CopiedTable) async throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.name)") ?? 0
    }

    /// A stored value read by its column's kind; SQLite lets any column hold any type, so one of another type throws.
    private static func copiedValue(_ value: DatabaseValue, of column: CopiedTable.Column, in table: CopiedTable) throws -> CopiedValue {
        switch (column.kind, value.storage) {
        case (_, .null): return .null
        case (.text, .string(let text)): return .text(text)
        case (.integer, .int64(let integer)): return .integer(integer)
        case (.real, .double(let real)): return .real(real)
        case (.real, .int64(let integer)): return .real(Double(integer))
        case (.boolean, .int64(let integer)) where integer == 0 || integer == 1: return .boolean(integer == 1)
        case (.blob, .blob(let data)), (.sealed, .blob(let data)): return .blob(data)
        default: throw UnexpectedStoredValue(table, column)
        }
    }

    private static func databaseValue(_ value: CopiedValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .text(let text): text.databaseValue
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .boolean(let boolean): (boolean ? 1 : 0).databaseValue
        case .blob(let data): data.databaseValue
        }
    }
}
