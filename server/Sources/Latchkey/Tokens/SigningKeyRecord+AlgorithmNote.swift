import Foundation
import LatchkeyDomain

extension SigningKeyRecord {
    /// What `check-config`, `init` and `keys` say when this key, the newest (`SigningKeySchedule.newestKey(unlike:)`),
    /// is not of `configured` (`tokens.algorithm`): that it signs all the same, and the two ways to agree again.
    package func algorithmNote(configured: SigningAlgorithm) -> String {
        "the newest signing key, \(id), is \(algorithm.rawValue) (signing from \(activatesAt.formatted(.iso8601))), not tokens.algorithm's "
            + "\(configured.rawValue): every instance signs with the newest key. Set tokens.algorithm to \(algorithm.rawValue), or run "
            + "`latchkey keys rotate --algorithm \(configured.rawValue)` to move to \(configured.rawValue)"
    }
}
