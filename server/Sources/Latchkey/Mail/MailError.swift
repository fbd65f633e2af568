/// Why a mail message could not be built or sent.
///
/// Payloads describe the problem in constant words and never echo the offending address or header,
/// because these errors reach logs and logs must not show full email addresses.
/// The enum is expected to grow (for example with transport failures), so switch over it with care.
package enum MailError: Error, Sendable, Equatable {
    /// An address or display name was refused; the payload is the reason, never the address.
    case invalidAddress(String)
    /// A header value (subject, message ID, MIME boundary) would have produced an unsafe header.
    case invalidHeader(String)
    /// A queued sign-in letter that does not decode (written by an unknown version, or damaged).
    case unreadableLetter
}

/// A message that cannot be built now never will be: delivery gives it up at once rather than retry.
extension MailError: PermanentFailure {
    package var isPermanent: Bool { true }
}
