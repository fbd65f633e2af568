import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238) as Firebase's SDKs and every authenticator app compute them: HMAC-SHA1 over
/// the count of 30-second steps since 1970, dynamically truncated (RFC 4226 §5.3) to six digits.
package enum TOTP {
    /// Seconds per step. The SDKs' `otpauth://` URI carries no `period`, so authenticators assume 30.
    package static let period: Int64 = 30
    package static let digits = 6
    /// Bytes of a new shared secret: 160 bits, RFC 4226's recommended length.
    package static let secretLength = 20

    /// The step `date` falls in.
    package static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of `step` under `secret`, left-padded with zeros.
    package static func code(secret: Data, step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = String(binary % 1_000_000)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The step within `window` steps either side of `now` whose code is `code`, or nil. Every step of the window is
    /// computed and compared in full whatever matches, so the time taken says nothing of which digits were right.
    package static func matchingStep(of code: String, secret: Data, at now: Date, window: Int) -> Int64? {
        let given = Array(code.utf8)
        guard given.count == digits, given.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let current = step(at: now)
        var found: Int64?
        for step in (current - Int64(window))...(current + Int64(window)) {
            let expected = Array(Self.code(secret: secret, step: step).utf8)
            var difference: UInt8 = 0
            for index in 0..<digits { difference |= expected[index] ^ given[index] }
            if difference == 0, found == nil { found = step }
        }
        return found
    }
}

extension Data {
    /// Base32 (RFC 4648 §6) in upper case without padding, as authenticator apps read a shared secret.
    package func base32Encoded() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in self {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 0x1f)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1f)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
