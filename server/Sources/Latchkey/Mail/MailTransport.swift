import LatchkeyDomain

/// Hands one finished message to the outside world.
package protocol MailTransport: Sendable {
    /// Delivers `message` (complete MIME bytes) to `recipient`; throws when it was not accepted.
    func deliver(_ message: [UInt8], to recipient: EmailAddress, id: Int64) async throws
}
