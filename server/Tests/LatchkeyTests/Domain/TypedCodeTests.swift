import Latchkey
import LatchkeyDomain
import Testing

@Suite struct TypedCodeTests {
    /// The alphabet leaves out every character that reads like another, and new codes use only it.
    @Test func codesUseAnUnambiguousAlphabet() {
        #expect(TypedCode.alphabet.count == 31 && Set(TypedCode.alphabet).isDisjoint(with: "0O1IL"))
        let codes = (0..<500).map { _ in TypedCode.make() }
        #expect(codes.allSatisfy { $0.count == 8 && $0.allSatisfy(TypedCode.alphabet.contains) })
        #expect(Set(codes).count == codes.count)
        // Every character turns up: 4000 draws from 31 miss one with a probability below 10^-50.
        #expect(Set(codes.joined()) == Set(TypedCode.alphabet))
    }

    /// What people type (lower case, the hyphen the email shows, spaces) names the code; anything else names none.
    @Test(arguments: [
        ("ABCD-EFGH", "ABCDEFGH"), ("abcd efgh", "ABCDEFGH"), ("ab cd-ef gh", "ABCDEFGH"), ("ABCDEFG", nil), ("ABCDEFGH2", nil), ("ABCD-EFG0", nil),
        ("ABCD-EFGI", nil), ("", nil), (String(repeating: "A", count: 43), nil),
        // The Kelvin sign is `K` to Swift's character comparison but not in bytes: it must not pass for one.
        ("\u{212A}BCD-EFGH", nil), ("ＡBCD-EFGH", nil),
    ] as [(String, String?)])
    func typedTextIsNormalized(typed: String, code: String?) {
        #expect(TypedCode.normalize(typed) == code)
    }

    @Test func theEmailShowsTwoGroupsOfFour() {
        #expect(TypedCode.display("ABCDEFGH") == "ABCD-EFGH")
    }
}
