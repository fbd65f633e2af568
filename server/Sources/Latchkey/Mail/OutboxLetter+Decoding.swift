import Foundation
import LatchkeyDomain

/// Delivery's side of a sealed letter: the bytes the domain queued, read back before rendering.
extension OutboxLetter {
    /// Throws `MailError.unreadableLetter` (permanent: retrying cannot help) when `data` is not such a letter.
    package init(decoding data: Data) throws(MailError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw .unreadableLetter
        }
    }
}
