import Foundation

extension Date {
    /// Whole seconds, because many JWT verifiers reject fractional `iat` and `exp` (and `validSince` is compared with
    /// `iat`).
    package var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
