/// Why a gateway did not take a text, and whether the outbox should try again.
///
/// The reason lands on the outbox row (`latchkey outbox`), so it never holds the number or the body: Twilio's
/// messages quote the number, so only its numeric error code is kept.
package enum TextDeliveryError: Error, Equatable, PermanentFailure, CustomStringConvertible {
    /// The gateway refused the text for good: a 4xx other than 408 and 429 (an invalid number, refused credentials, a
    /// wrong account). Retrying cannot help, so the message is given up.
    case refused(gateway: String, status: Int, code: Int?)
    /// The gateway could not take it now: a 5xx, 408 or 429, no answer within the deadline, no connection, or an
    /// answer that is no HTTP. Retried with the outbox's backoff.
    case unavailable(gateway: String, reason: String)

    package var isPermanent: Bool {
        if case .refused = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .refused(let gateway, let status, let code): "\(gateway) refused the text: HTTP \(status)" + (code.map { " (error \($0))" } ?? "")
        case .unavailable(let gateway, let reason): "\(gateway) unavailable: \(reason)"
        }
    }
}
