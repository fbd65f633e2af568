import Foundation

/// Typed reads of a ``JSONValue``, returning nil on a type mismatch so request decoding can report the field it expected.
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

    package var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    package var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// An integer written as `6` or as `"6"`, because Google's JSON mapping accepts both for integer fields.
    ///
    /// Only plain JSON integer text that fits `Int` counts: `6.5`, `1e2`, `"+6"`, `" 6"` and `"x"` give nil.
    package var intValue: Int? {
        switch self {
        case .number(let text), .string(let text):
            return Self.isIntegerText(text) ? Int(text) : nil
        default:
            return nil
        }
    }

    /// Whether `text` matches the JSON grammar for an integer (`-?(0|[1-9][0-9]*)`), which `Int(_:)` alone does not check.
    private static func isIntegerText(_ text: String) -> Bool {
        var digits = Substring(text).utf8
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard let first = digits.first, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 }) else { return false }
        return first != UInt8(ascii: "0") || digits.count == 1
    }
}
