import Latchkey
import LatchkeyDomain
import Testing

/// Checks that request bodies are held to RFC 8259, and that duplicate keys are refused as Google APIs refuse them.
@Suite struct JSONParserTests {
    static let validDocuments: [(text: String, value: JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        (" \t\r\nfalse\n", .bool(false)),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("12.50", .number("12.50")),
        ("-1.5E+10", .number("-1.5E+10")),
        ("9223372036854775808", .number("9223372036854775808")),
        ("\"\"", .string("")),
        ("\"plain text\"", .string("plain text")),
        (#""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{08} \u{0C} \n \r \t")),
        (#""\u0041\u00e9\u20AC""#, .string("Aé€")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\u0000""#, .string("\u{0}")),
        ("\"é€😀\u{7F}\"", .string("é€😀\u{7F}")),
        ("[]", .array([])),
        ("[1, \"two\", [null]]", .array([.number("1"), .string("two"), .array([.null])])),
        ("{}", .object([:])),
        (
            #"{ "email" : "a@example.com", "returnOobLink": true, "n": [ ] }"#,
            .object(["email": .string("a@example.com"), "returnOobLink": .bool(true), "n": .array([])])
        ),
        (#"{"a": {"a": 1}}"#, .object(["a": .object(["a": .number("1")])])),
    ]

    @Test("Parses valid documents", arguments: validDocuments)
    func parsesValidDocument(text: String, value: JSONValue) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == value)
    }

    static let malformedDocuments: [(text: String, message: String)] = [
        ("", "Unexpected end of input."),
        ("   ", "Unexpected end of input."),
        ("[1, 2,]", "Unexpected token at byte 6."),
        (#"{"a": 1,}"#, "Unexpected token at byte 8."),
        ("['a']", "Unexpected token at byte 1."),
        ("{a: 1}", "Unexpected token at byte 1."),
        ("01", "Unexpected token at byte 1."),
        ("[-01]", "Unexpected token at byte 3."),
        ("+1", "Unexpected token at byte 0."),
        (".5", "Unexpected token at byte 0."),
        ("1.", "Unexpected end of input."),
        ("1.e3", "Unexpected token at byte 2."),
        ("NaN", "Unexpected token at byte 0."),
        ("-Infinity", "Unexpected token at byte 1."),
        ("tru", "Unexpected end of input."),
        ("nul1", "Unexpected token at byte 3."),
        ("{} x", "Unexpected token at byte 3."),
        ("1 2", "Unexpected token at byte 2."),
        ("\u{0C}1", "Unexpected token at byte 0."),
        ("\u{FEFF}{}", "Unexpected token at byte 0."),
        ("\"abc", "Unexpected end of input."),
        ("\"a\u{01}b\"", "Unescaped control character at byte 2."),
        ("\"tab\there\"", "Unescaped control character at byte 4."),
        (#""\x""#, "Invalid escape at byte 1."),
        (#""\u12G4""#, "Invalid escape at byte 1."),
        (#""\ud83d""#, "Lone surrogate at byte 1."),
        (#""\ud83d\u0041""#, "Lone surrogate at byte 1."),
        (#""\ude00""#, "Lone surrogate at byte 1."),
        (#"{"email": "a", "email": "b"}"#, #"Duplicate key "email"."#),
        (#"{"a": 1, "\u0061": 2}"#, #"Duplicate key "a"."#),
        (#"{"é": 1, "\u00e9": 2}"#, #"Duplicate key "é"."#),
        (#"[{"x": [], "x": {}}]"#, #"Duplicate key "x"."#),
        (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), "Nesting deeper than 64 levels."),
        (String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65), "Nesting deeper than 64 levels."),
    ]

    @Test("Rejects malformed documents", arguments: malformedDocuments)
    func rejectsMalformedDocument(text: String, message: String) {
        #expect(throws: JSONSyntaxError(message: message)) { try JSONParser.parse(Array(text.utf8)) }
    }

    static let invalidUTF8: [(bytes: [UInt8], message: String)] = [
        ([0x22, 0xC3, 0x28, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0x61, 0xC0, 0xAF, 0x22], "Invalid UTF-8 at byte 2."),
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0x80, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0xFF, 0x22], "Invalid UTF-8 at byte 1."),
        ([0x22, 0xE2, 0x82], "Invalid UTF-8 at byte 1."),
        ([0xC3, 0xA9], "Unexpected token at byte 0."),
    ]

    @Test("Rejects invalid UTF-8", arguments: invalidUTF8)
    func rejectsInvalidUTF8(bytes: [UInt8], message: String) {
        #expect(throws: JSONSyntaxError(message: message)) { try JSONParser.parse(bytes) }
    }

    @Test func acceptsNestingOfExactlySixtyFourLevels() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONParser.parse(Array(text.utf8)) != .null)
    }

    @Test func acceptsAnyByteCollection() throws {
        #expect(try JSONParser.parse(#"{"n": 1}"#.utf8)["n"] == .number("1"))
        #expect(try JSONParser.parse(ArraySlice<UInt8>(Array("[true]".utf8))) == .array([.bool(true)]))
    }

    @Test func readsMembers() throws {
        let body = try JSONParser.parse(Array(#"{"email": "a@example.com", "canHandleCodeInApp": false, "count": "6"}"#.utf8))
        #expect(body["email"] == .string("a@example.com"))
        #expect(body["canHandleCodeInApp"] == .bool(false))
        #expect(body["count"] == .string("6"))
        #expect(body["missing"] == nil)
        #expect(JSONValue.array([.string("a")])["email"] == nil)
    }

    @Test func membersMatchUnderTheirSnakeCaseAndCamelCaseNames() throws {
        let body = try JSONParser.parse(Array(#"{"continue_url": "a", "iOSBundleId": "b", "return_oob_link": true, "x_": 1}"#.utf8))
        #expect(body["continueUrl"] == .string("a"))
        #expect(body["ios_bundle_id"] == .string("b") && body["iosBundleId"] == .string("b"))
        #expect(body["returnOobLink"] == .bool(true))
        #expect(body["x"] == .number("1"))
        #expect(body["continueUr"] == nil && body["continueUrlx"] == nil && body["iosBundle"] == nil)
    }
}
