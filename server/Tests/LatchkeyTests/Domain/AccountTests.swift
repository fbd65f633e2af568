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
}
