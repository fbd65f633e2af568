/// Every table's rows as stored, for `latchkey copy`: what moves a deployment from one store to another, hashes and
/// sealed values untouched.
package protocol RowCopyStore {
    /// Up to `limit` rows of `table` in key order, from the first or after the row whose key values are `key`; each
    /// row holds its values in the order of `table.columns`.
    func rows(of table: CopiedTable, after key: [CopiedValue]?, limit: Int) async throws -> [[CopiedValue]]
    /// Inserts `rows` as they are, keys included, and makes sure the store numbers its next rows past them.
    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) async throws
    /// How many rows `table` holds.
    func rowCount(of table: CopiedTable) async throws -> Int
}
