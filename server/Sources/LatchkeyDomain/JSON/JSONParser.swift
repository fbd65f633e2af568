/// Parses request bodies as strict RFC 8259 JSON.
///
/// Foundation's `JSONDecoder` silently keeps one of two duplicate keys, while Google APIs answer 400
/// "Invalid JSON payload received. …" for them as for any malformed body, so bodies go through this parser first.
/// Bodies are at most 64 KiB, so a recursive descent over a byte array is simple and fast enough.
package enum JSONParser {
    /// The deepest nesting of arrays and objects accepted, so hostile bodies cannot exhaust the stack.
    package static let maximumDepth = 64

    /// Parses exactly one JSON value, surrounded by nothing but whitespace.
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var cursor = Cursor(bytes: Array(bytes))
        cursor.skipWhitespace()
        let value = try cursor.parseValue(depth: 0)
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw .unexpectedToken(at: cursor.index) }
        return value
    }
}

/// The read position in a body; each `parse…` method starts on the first byte of its value and stops just after it.
private struct Cursor {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    /// The current byte, which the caller still has to consume.
    func peek() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd }
        return bytes[index]
    }

    /// Skips the four whitespace bytes RFC 8259 allows, and no others (no BOM, no NBSP).
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// Parses one value; `depth` counts the arrays and objects that enclose it.
    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try consumeLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try consumeLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try consumeLiteral("null")
            return .null
        default: throw .unexpectedToken(at: index)
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw .tooDeep }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw .unexpectedToken(at: index) }
            let key = try parseString()
            guard members[key] == nil else { throw .duplicateKey(key) }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw .unexpectedToken(at: index) }
            index += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw .unexpectedToken(at: index)
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw .tooDeep }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw .unexpectedToken(at: index)
            }
        }
    }

    /// Parses `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?` and returns its text unchanged.
    mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if try peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            try consumeDigits()
        }
        if !isAtEnd, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try consumeDigits()
        }
        if !isAtEnd, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if !isAtEnd, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try consumeDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Consumes one or more ASCII digits.
    mutating func consumeDigits() throws(JSONSyntaxError) {
        guard UInt8(ascii: "0")...UInt8(ascii: "9") ~= (try peek()) else { throw .unexpectedToken(at: index) }
        while !isAtEnd, UInt8(ascii: "0")...UInt8(ascii: "9") ~= bytes[index] { index += 1 }
    }

    mutating func consumeLiteral(_ literal: String) throws(JSONSyntaxError) {
        for expected in literal.utf8 {
            guard try peek() == expected else { throw .unexpectedToken(at: index) }
            index += 1
        }
    }

    /// Parses a string, copying runs of plain bytes and decoding escapes between them.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var unescaped: [UInt8] = []
        var runStart = index
        while true {
            switch try peek() {
            case UInt8(ascii: "\""):
                unescaped.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: unescaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                unescaped.append(contentsOf: bytes[runStart..<index])
                try appendEscape(to: &unescaped)
                runStart = index
            case 0x00..<0x20: throw .controlCharacter(at: index)
            case 0x20..<0x80: index += 1
            default: try consumeMultibyteScalar()
            }
        }
    }

    /// Consumes one well-formed multi-byte UTF-8 sequence (Unicode Table 3-7), so overlong forms, encoded surrogates and
    /// values above U+10FFFF are rejected before `String(decoding:)` could silently replace them.
    mutating func consumeMultibyteScalar() throws(JSONSyntaxError) {
        let length: Int
        var secondByte: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, secondByte) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, secondByte) = (3, 0x80...0x9F)
        case 0xF0: (length, secondByte) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, secondByte) = (4, 0x80...0x8F)
        default: throw .invalidUTF8(at: index)
        }
        guard index + length <= bytes.count, secondByte ~= bytes[index + 1],
            bytes[(index + 2)..<(index + length)].allSatisfy({ 0x80...0xBF ~= $0 })
        else { throw .invalidUTF8(at: index) }
        index += length
    }

    /// Decodes the escape at the current backslash and appends its UTF-8 bytes.
    mutating func appendEscape(to unescaped: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        let letter = try peek()
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(letter)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var value = try consumeHexQuad(escapeStart: escapeStart)
            if 0xD800...0xDBFF ~= value {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw .loneSurrogate(at: escapeStart) }
                index += 2
                let low = try consumeHexQuad(escapeStart: index - 2)
                guard 0xDC00...0xDFFF ~= low else { throw .loneSurrogate(at: escapeStart) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { throw .loneSurrogate(at: escapeStart) }
            unescaped.append(contentsOf: scalar.utf8)
        default: throw .invalidEscape(at: escapeStart)
        }
    }

    /// Reads the four hex digits of a `\u` escape as a UTF-16 code unit.
    mutating func consumeHexQuad(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch try peek() {
            case let byte where UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte: digit = UInt32(byte - UInt8(ascii: "0"))
            case let byte where UInt8(ascii: "a")...UInt8(ascii: "f") ~= byte: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case let byte where UInt8(ascii: "A")...UInt8(ascii: "F") ~= byte: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidEscape(at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
