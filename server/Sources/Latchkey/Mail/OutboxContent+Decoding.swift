import Foundation
import LatchkeyDomain

/// Delivery's side of sealed content (a letter or a text): the bytes the domain queued, read back before rendering.
extension OutboxContent {
    /// Throws `MailError.unreadableLetter` (permanent: retrying cannot help) when `data` is not such content.
    package init(decoding data: Data) throws(MailError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw .unreadableLetter
        }
    }
}
