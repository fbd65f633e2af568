import Foundation
import Latchkey
import Testing

@Suite("MailAddress")
struct MailAddressTests {
    @Test(arguments: ["user@example.com", "First.Last+tag@sub.example.org", "o'brien@example.ie", "x@localhost", "a-b_c=d@xn--bcher-kva.example"])
    func validAddressIsAccepted(address: String) throws {
        #expect(try MailAddress(address: address).address == address)
    }

    @Test(arguments: [
        ("", "address is empty"),
        ("user.example.com", "address must contain exactly one @"),
        ("a@b@example.com", "address must contain exactly one @"),
        ("user@example.com\r\nBcc: eve@evil.example", "address contains a control character"),
        ("user@example.com\nBcc: eve@evil.example", "address contains a control character"),
        ("user@example.com\u{0}", "address contains a control character"),
        ("user@example.com\u{7F}", "address contains a control character"),
        ("user name@example.com", "address contains a character not allowed in a local part"),
        ("<user@example.com>", "address contains a character not allowed in a local part"),
        ("\"user\"@example.com", "address contains a character not allowed in a local part"),
        ("a,b@example.com", "address contains a character not allowed in a local part"),
        ("user@exa mple.com", "address domain is not a valid host name"),
        ("user@example.com>", "address domain is not a valid host name"),
        ("user@[127.0.0.1]", "address domain is not a valid host name"),
        ("user@-example.com", "address domain is not a valid host name"),
        ("user@example..com", "address domain is not a valid host name"),
        ("user@", "address has an empty domain"),
        ("@example.com", "address has an empty local part"),
        (".user@example.com", "address local part has a misplaced dot"),
        ("us..er@example.com", "address local part has a misplaced dot"),
        ("jösé@example.com", "address contains a non-ASCII character"),
        (String(repeating: "a", count: 65) + "@example.com", "address local part is longer than 64 characters"),
        ("a@" + String(repeating: "b", count: 253), "address is longer than 254 characters"),
    ])
    func invalidAddressIsRejectedWithoutEchoingIt(address: String, reason: String) {
        #expect(throws: MailError.invalidAddress(reason)) {
            try MailAddress(address: address)
        }
    }

    @Test(arguments: ["Eve\r\nBcc: eve@evil.example", "Eve\nBcc:", "Eve\u{0}", "Eve\u{1B}[0m", "Tab\tName", "Del\u{7F}", "Next\u{85}Line"])
    func displayNameWithControlCharactersIsRejected(name: String) {
        #expect(throws: MailError.invalidAddress("display name contains a control character")) {
            try MailAddress(address: "user@example.com", displayName: name)
        }
    }

    @Test(
        arguments: [
            (nil, "user@example.com"),
            ("", "user@example.com"),
            ("Latchkey", "Latchkey <user@example.com>"),
            ("Jean Dupont", "Jean Dupont <user@example.com>"),
            ("Dupont, Jean", "\"Dupont, Jean\" <user@example.com>"),
            ("J. R. \"Bob\" Dobbs", "\"J. R. \\\"Bob\\\" Dobbs\" <user@example.com>"),
            ("back\\slash", "\"back\\\\slash\" <user@example.com>"),
            ("Latchkey (no reply)", "\"Latchkey (no reply)\" <user@example.com>"),
            ("eve@evil.example", "\"eve@evil.example\" <user@example.com>"),
            ("=?UTF-8?B?SGk=?=", "\"=?UTF-8?B?SGk=?=\" <user@example.com>"),
            ("two  spaces", "\"two  spaces\" <user@example.com>"),
            ("Élodie", "=?UTF-8?B?w4lsb2RpZQ==?= <user@example.com>"),
        ] as [(String?, String)])
    func headerValueQuotesOrEncodesTheDisplayName(name: String?, expected: String) throws {
        #expect(try MailAddress(address: "user@example.com", displayName: name).headerValue == expected)
    }

    @Test(arguments: [
        "Élodie Dupré",
        "Вход",
        "ログイン サービス",
        "Dupont, Jean-François « le Grand » — équipe d’assistance de Latchkey, service des connexions",
        "👨‍👩‍👧‍👦 " + String(repeating: "日本", count: 40),
    ])
    func nonASCIIDisplayNameBecomesEncodedWordsThatDecodeBack(name: String) throws {
        let headerValue = try MailAddress(address: "user@example.com", displayName: name).headerValue
        #expect(headerValue.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(headerValue.hasSuffix(" <user@example.com>"))
        let phrase = String(headerValue.dropLast(" <user@example.com>".count))
        #expect(phrase.split(separator: " ").allSatisfy { $0.count <= 75 })
        #expect(MIMETestDecoder.decodeEncodedWords(phrase) == name)
    }

    @Test func domainIsThePartAfterTheAt() throws {
        #expect(try MailAddress(address: "user@Mail.Example.com").domain == "Mail.Example.com")
    }
}
