import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct AccountTests {
    /// Firebase-shaped ids: 28 letters and digits, every one of the 62 about equally likely (a mapping that skipped
    /// or favoured some would show here: each is expected 903 times in 2,000 ids).
    @Test func accountIDsAreTwentyEightUniformLettersAndDigits() {
        let ids = (0..<2_000).map { _ in Account.makeID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 28 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        let counts = Dictionary(ids.joined().map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.count == 62)
        #expect(counts.values.allSatisfy { (700...1_100).contains($0) }, "\(counts.values.sorted())")
    }

    /// A new account's id sorts by its creation second, in byte order and in a collation that ignores case first, so
    /// new accounts append to the indexes keyed by account; the rest stays 21 random letters and digits.
    @Test func newAccountIDsSortByCreationThenAreRandom() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let ids = (0..<1_000).map { Account.makeID(at: start.addingTimeInterval(Double($0 / 10) * 37)) }
        #expect(ids.allSatisfy { $0.count == 28 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        #expect(Set(ids).count == ids.count)
        let byCreation = ids.map { String($0.prefix(7)) }
        #expect(byCreation == byCreation.sorted() && byCreation == byCreation.sorted { $0.lowercased() < $1.lowercased() })
        #expect(Set(byCreation).count == 100)
        #expect(Account.makeID(at: start).hasPrefix("0" + String(1_795_000_000, radix: 36)))
        let counts = Dictionary(ids.map { $0.dropFirst(7) }.joined().map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.count == 62 && counts.values.allSatisfy { (250...440).contains($0) }, "\(counts.values.sorted())")
    }
}
