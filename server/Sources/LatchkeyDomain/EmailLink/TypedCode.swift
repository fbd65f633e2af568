import Foundation

/// The short code a sign-in email shows beside its link, for typing on the device that asked when the email is read on
/// another: 8 characters from 31 that cannot be mistaken for one another (no `0`/`O`, no `1`/`I`/`L`), about 39.6 bits.
/// It belongs to the link's request: whichever is used first spends both.
package enum TypedCode {
    package static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    package static let length = 8
    private static let asciiAlphabet = Set(alphabet.flatMap(\.unicodeScalars))

    /// A new code from the CSPRNG; a byte picks a character only below 248 (8 × 31), so every character is equally likely.
    package static func make() -> String {
        let unbiased = UInt8(256 / alphabet.count * alphabet.count - 1)
        var code: [Character] = []
        while code.count < length {
            for byte in ServerSecret.randomBytes(16) where byte <= unbiased && code.count < length {
                code.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(code)
    }

    /// The code as the email shows it: two groups of four (`ABCD-EFGH`).
    package static func display(_ code: String) -> String {
        String(code.prefix(length / 2)) + "-" + String(code.dropFirst(length / 2))
    }

    /// What a user typed, as the code it names (upper case, without the spaces and hyphens people add), or nil when it
    /// cannot be a typed code at all (a link's code, for one).
    package static func normalize(_ typed: String) -> String? {
        guard typed.count <= 2 * length else { return nil }
        // Matched by Unicode scalar, not by character: Swift finds `K` in the Kelvin sign, whose bytes hash differently.
        let scalars = typed.uppercased().unicodeScalars.filter { $0 != " " && $0 != "-" }
        guard scalars.count == length, scalars.allSatisfy({ asciiAlphabet.contains($0) }) else { return nil }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The keyed hash stored for `code`: taken together with its address, so a code only ever matches its own address.
    static func hash(_ code: String, email: EmailAddress, secret: ServerSecret) -> Data {
        secret.hash(email.value + "\n" + code, for: .typedCode)
    }
}
