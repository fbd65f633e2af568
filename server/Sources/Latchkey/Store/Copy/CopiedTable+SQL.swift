import LatchkeyDomain

extension CopiedTable {
    /// The statement that reads one page of rows in key order: the first page, or the one after a key bound to the
    /// first placeholders (keyset pagination, so each page is an index range however deep the copy is).
    /// `placeholder(n)` spells the n-th parameter (from 0) in the store's dialect.
    package func selectPage(afterKey: Bool, limit: Int, placeholder: (Int) -> String) -> String {
        let keys = key.joined(separator: ", ")
        var sql = "SELECT \(columns.map(\.name).joined(separator: ", ")) FROM \(name)"
        if afterKey {
            let values = key.indices.map(placeholder).joined(separator: ", ")
            sql += key.count == 1 ? " WHERE \(keys) > \(values)" : " WHERE (\(keys)) > (\(values))"
        }
        return sql + " ORDER BY \(keys) LIMIT \(limit)"
    }

    /// The statement that inserts `rows` rows, their values bound in row order.
    package func insert(rows: Int, placeholder: (Int) -> String) -> String {
        let width = columns.count
        let tuples = (0..<rows).map { row in "(" + (0..<width).map { placeholder(row * width + $0) }.joined(separator: ", ") + ")" }
        return "INSERT INTO \(name) (\(columns.map(\.name).joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ")
    }
}
