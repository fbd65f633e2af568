import Foundation

/// The second something was made, as seven base-36 characters (digits, then lower-case letters, which sort alike in
/// every collation): the start of the ids and codes that sort by creation, so that new rows land at the end of the
/// indexes keyed by them instead of on a random page of each, however large the tables grow (issue #39).
package enum CreationSecond {
    package static let length = 7

    package static func base36(_ now: Date) -> String {
        let seconds = String(UInt64(max(0, now.timeIntervalSince1970)), radix: 36)
        return String(repeating: "0", count: max(0, length - seconds.count)) + seconds.suffix(length)
    }
}
