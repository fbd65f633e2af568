import Foundation

/// One stored value as `latchkey copy` carries it from one store to the other, exactly as it was stored: hashes and
/// sealed values are not opened, times keep every digit.
package enum CopiedValue: Sendable, Hashable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case blob(Data)
}

/// A stored value that is not of its column's kind (text in an INTEGER column of SQLite, which allows it): the copy
/// stops rather than guess.
package struct UnexpectedStoredValue: Error, CustomStringConvertible {
    package let description: String

    package init(_ table: CopiedTable, _ column: CopiedTable.Column) {
        description = "\(table.name).\(column.name) holds a value that is not \(column.kind)"
    }
}
