import Logging

/// Why a send that the caller is told went out mailed nothing: the rule lives here, for sign-in links and the other
/// email actions alike.
enum DroppedSend: Sendable {
    /// The address's per-address window is full. Only with enumeration protection is that answered as a send, since "too
    /// many" would tell a prober that someone just asked for this address; otherwise the refusal is thrown.
    case perAddressLimit(RateLimited)
    /// The address cools off after its owner said "this wasn't me" (`CoolOffs`).
    case coolOff

    /// Throws `refusal` unless, with enumeration protection, it is a full per-address window to answer as a send.
    static func check(_ refusal: RateLimited, enumerationProtection: Bool) throws(RateLimited) -> DroppedSend {
        guard refusal.rule == .sendPerEmail, enumerationProtection else { throw refusal }
        return .perAddressLimit(refusal)
    }

    /// Logs why nothing was mailed: at info in development mode, where a developer waits for the email, else at debug.
    func log(to email: EmailAddress, isDevelopment: Bool, metrics: SignInMetrics, logger: Logger) {
        var metadata: Logger.Metadata = ["email": "\(email.redacted)"]
        let message: Logger.Message
        switch self {
        case .perAddressLimit(let refusal):
            metrics.countRejection(by: refusal.rule)
            message = "Answered as sent, but no email sent: this address already had one within rateLimits.sendPerEmail"
            metadata["retry_after_s"] = "\(refusal.retryAfter)"
        case .coolOff:
            message = "Answered as sent, but no email sent: the address cools off after its owner said a sign-in wasn't them"
        }
        logger.log(level: isDevelopment ? .info : .debug, message, metadata: metadata)
    }
}
