import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct TOTPTests {
    /// RFC 6238 Appendix B's SHA-1 secret and times; six digits are the last six of the RFC's eight.
    @Test(arguments: [
        (59.0, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"), (2_000_000_000, "279037"),
        (20_000_000_000, "353130"),
    ])
    func theRFCsTestVectorsPass(seconds: Double, code: String) {
        let secret = Data("12345678901234567890".utf8)
        #expect(TOTP.code(secret: secret, step: TOTP.step(at: Date(timeIntervalSince1970: seconds))) == code)
    }

    /// RFC 4648 §10's base32 vectors, unpadded as authenticator apps take them.
    @Test(arguments: [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")])
    func base32MatchesTheRFC(text: String, encoded: String) {
        #expect(Data(text.utf8).base32Encoded() == encoded)
    }

    /// The window reaches `k` steps either side of now, and not one more; the step found is the code's own.
    @Test func theWindowEndsAtItsEdges() {
        let secret = Data("12345678901234567890".utf8)
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        let current = TOTP.step(at: now)
        for offset in -3...3 {
            let code = TOTP.code(secret: secret, step: current + Int64(offset))
            let found = TOTP.matchingStep(of: code, secret: secret, at: now, window: 2)
            #expect(found == (abs(offset) <= 2 ? current + Int64(offset) : nil), "offset \(offset)")
        }
        #expect(TOTP.matchingStep(of: TOTP.code(secret: secret, step: current), secret: secret, at: now, window: 0) == current)
        #expect(TOTP.matchingStep(of: TOTP.code(secret: secret, step: current + 1), secret: secret, at: now, window: 0) == nil)
    }

    /// Codes of the wrong length or with anything but ASCII digits match nothing, whatever their digits.
    @Test(arguments: ["", "12345", "1234567", "1000000", "12345a", "１２３４５６", " 12345", "123 456"])
    func malformedCodesMatchNothing(code: String) {
        #expect(TOTP.matchingStep(of: code, secret: Data("12345678901234567890".utf8), at: Date(), window: 10) == nil)
    }

    /// The step boundaries fall on multiples of 30 seconds from 1970.
    @Test func stepsAreThirtySecondsFromTheEpoch() {
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 29.999)) == 0)
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 30)) == 1)
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 1_800_000_000)) == 60_000_000)
    }
}
