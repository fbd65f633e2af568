import Latchkey
import LatchkeyDomain
import Testing

@Suite struct EmailAddressTests {
    @Test(arguments: [
        ("Alice@Example.com", "alice@example.com"),
        ("  bob@example.com\t", "bob@example.com"),
        ("first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk"),
        ("o'neil@xn--bcher-kva.example", "o'neil@xn--bcher-kva.example"),
    ])
    func normalizesValidAddresses(_ raw: String, _ stored: String) {
        #expect(EmailAddress(raw)?.value == stored)
    }

    @Test(arguments: [
        "", "alice", "alice@", "@example.com", "al ice@example.com", "alice@example.com\r\n", "alice@exa\nmple.com", "alice\u{0}@example.com",
        "a@b@example.com", "alice@example", "alice@-example.com", ".alice@example.com", "al..ice@example.com", "\"quoted\"@example.com",
        "<alice@example.com>", "alice@example.com,bob@example.com", "ålice@example.com", String(repeating: "a", count: 65) + "@example.com",
        TooLong.email,
    ])
    func refusesInvalidAddresses(_ raw: String) {
        #expect(EmailAddress(raw) == nil)
    }

    @Test func theLongestAcceptedAddressHas254Characters() {
        #expect(TooLong.email.count == 255)
        #expect(EmailAddress(String(TooLong.email.dropFirst())) != nil)
    }

    @Test func redactsForLogs() throws {
        #expect(try #require(EmailAddress("alice@example.com")).redacted == "a***@example.com")
    }
}
