/// Why the SMTP relay did not take a message, and whether trying again later can help.
///
/// The description says what happened in operator terms (`connection refused`, `550 mailbox unavailable`). It is
/// built from constant phrases and libcurl's own error text, never from the server's reply text, because a reply
/// often quotes the recipient and this error ends up in logs and in the outbox table.
package struct MailDeliveryError: PermanentFailure, Sendable, Equatable, CustomStringConvertible {
    /// The broad cause, enough to choose between retrying and giving up.
    package enum Kind: String, Sendable, CaseIterable {
        /// Nothing accepted a connection at the relay's address and port.
        case connectionRefused
        /// The relay's host name does not resolve.
        case couldNotResolve
        /// Connecting or sending took longer than the configured timeout.
        case timeout
        /// TLS could not be set up: no STARTTLS offered, handshake failure or an untrusted certificate.
        case tlsFailed
        /// The relay refused the credentials.
        case authenticationFailed
        /// The connection broke in the middle of the conversation.
        case connectionLost
        /// The relay answered a command with an error reply; `smtpCode` says which.
        case rejected
        /// Anything else, including a transport that was already shut down.
        case other
    }

    package let kind: Kind
    /// The relay's last reply code when it was an error (4xx or 5xx), else `nil`.
    package let smtpCode: Int?
    /// What libcurl reported, with the recipient address removed; may be empty.
    package let detail: String

    package init(kind: Kind, smtpCode: Int? = nil, detail: String = "") {
        self.kind = kind
        self.smtpCode = smtpCode
        self.detail = detail
    }

    /// Whether sending the same message again cannot succeed: a 5xx reply, or credentials the relay refused.
    ///
    /// A 4xx reply is temporary by definition (RFC 5321 §4.2.1), so even a 4xx authentication reply is retried;
    /// connection, DNS, timeout and TLS problems are retried because they usually clear up on their own.
    package var isPermanent: Bool {
        if let smtpCode { return (500...599).contains(smtpCode) }
        return kind == .authenticationFailed
    }

    package var description: String {
        let summary = smtpCode.map { "\($0) \(Self.meaning(ofReply: $0, kind: kind))" } ?? Self.summary(of: kind)
        return detail.isEmpty ? summary : "\(summary) (\(detail))"
    }

    private static func summary(of kind: Kind) -> String {
        switch kind {
        case .connectionRefused: "connection refused"
        case .couldNotResolve: "host name not found"
        case .timeout: "timed out"
        case .tlsFailed: "TLS handshake failed"
        case .authenticationFailed: "authentication failed"
        case .connectionLost: "connection lost"
        case .rejected: "rejected"
        case .other: "delivery failed"
        }
    }

    /// The standard meaning of an SMTP reply code (RFC 5321 §4.2.3, RFC 4954 for AUTH, RFC 3207 for STARTTLS).
    private static func meaning(ofReply code: Int, kind: Kind) -> String {
        switch code {
        case 421: "service not available"
        case 450: "mailbox unavailable"
        case 451: "local error in processing"
        case 452: "insufficient system storage"
        case 454: kind == .authenticationFailed ? "temporary authentication failure" : "TLS not available"
        case 500: "syntax error, command unrecognized"
        case 501: "syntax error in parameters"
        case 502: "command not implemented"
        case 503: "bad sequence of commands"
        case 504: "command parameter not implemented"
        case 521, 556: "domain does not accept mail"
        case 530: "authentication or STARTTLS required"
        case 534: "authentication mechanism too weak"
        case 535: "authentication credentials invalid"
        case 538: "encryption required for authentication"
        case 550: "mailbox unavailable"
        case 551: "user not local"
        case 552: "exceeded storage allocation"
        case 553: "mailbox name not allowed"
        case 554: "transaction failed"
        default: (400...499).contains(code) ? "temporary failure" : "permanent failure"
        }
    }
}
