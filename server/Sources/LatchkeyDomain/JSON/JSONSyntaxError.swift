/// Why a body is not acceptable JSON, worded like the detail Google puts after "Invalid JSON payload received.".
///
/// Byte offsets are zero-based and point at the first byte that cannot be accepted.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    package let message: String
    /// The byte offset the message names, for callers that show a line and column instead.
    package let offset: Int?

    package init(message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    /// Errors are equal by their message, which already names the offset.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.message == rhs.message }

    package static let unexpectedEnd = Self(message: "Unexpected end of input.")
    static let tooDeep = Self(message: "Nesting deeper than \(JSONParser.maximumDepth) levels.")

    static func unexpectedToken(at offset: Int) -> Self { Self(message: "Unexpected token at byte \(offset).", offset: offset) }
    static func invalidUTF8(at offset: Int) -> Self { Self(message: "Invalid UTF-8 at byte \(offset).", offset: offset) }
    static func controlCharacter(at offset: Int) -> Self { Self(message: "Unescaped control character at byte \(offset).", offset: offset) }
    static func invalidEscape(at offset: Int) -> Self { Self(message: "Invalid escape at byte \(offset).", offset: offset) }
    static func loneSurrogate(at offset: Int) -> Self { Self(message: "Lone surrogate at byte \(offset).", offset: offset) }
    static func duplicateKey(_ key: String) -> Self { Self(message: "Duplicate key \(String(reflecting: key)).") }
}
