/// Reads an object's members the way Google's JSON mapping does.
extension JSONValue {
    /// The member named `key` of an object; nil for a missing member and for values that are not objects.
    ///
    /// Google's JSON mapping accepts a field under its camelCase and its snake_case name alike (`continueUrl`,
    /// `continue_url`), so a member whose name differs only by underscores and letter case matches too; an exact
    /// match wins.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        if let exact = members[key] { return exact }
        return members.first { Self.isSameField($0.key, key) }?.value
    }

    /// Equal once underscores are dropped and ASCII letters lower-cased. Runs for every optional field a request
    /// leaves out, so it compares bytes in place rather than building folded strings.
    private static func isSameField(_ name: String, _ other: String) -> Bool {
        func folded(_ bytes: inout String.UTF8View.Iterator) -> UInt8? {
            while let byte = bytes.next() {
                if byte == UInt8(ascii: "_") { continue }
                return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return nil
        }
        var left = name.utf8.makeIterator()
        var right = other.utf8.makeIterator()
        while true {
            let byte = folded(&left)
            guard byte == folded(&right) else { return false }
            if byte == nil { return true }
        }
    }
}
