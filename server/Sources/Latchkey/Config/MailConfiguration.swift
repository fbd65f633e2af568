import Foundation

/// How sign-in emails leave.
///
/// - `mail.from` (string, default `no-reply@` plus the public URL's host): the sender address. SMTP needs a domain
///   with a dot, so a public URL on `localhost` needs `mail.from` set to use `smtp`.
/// - `mail.fromName` (string, default the app name): the sender's display name.
/// - `mail.transport` (`"file"` or `"smtp"`, default `"file"`): `file` writes each message as an `.eml` file;
///   `smtp` sends through libcurl with the `mail.smtp.*` settings (see `SMTPSettings+ConfigReader.swift`).
/// - `mail.file.directory` (string, default `"data/outbox"`): where the `file` transport writes.
/// - `mail.workers` (integer, default `4`, 0 to 64): messages delivered at once (SMTP connections kept open).
///   `0` makes this instance store mail without delivering it, for a deployment where another instance delivers.
/// - `mail.maxAttempts` (integer, default `8`, 1 to 100): attempts before a message is given up.
/// - `mail.retry.firstDelaySeconds` (number, default `5`), `mail.retry.maximumDelaySeconds` (default `600`):
///   exponential backoff between attempts, with jitter.
/// - `mail.retry.leaseSeconds` (integer, default `60`): how long a worker holds a message before another may take it.
package struct MailConfiguration: Sendable {
    /// The ways a message can leave Latchkey.
    package enum Transport: String, Sendable, CaseIterable {
        case file
        case smtp
    }

    /// Where `from` came from, so that a refusal says what to change.
    package enum FromOrigin: Sendable {
        /// `mail.from`, from the file or the environment.
        case configured
        /// Not set: `no-reply@` and the public URL's host.
        case derivedFromPublicURL
        /// Not set, and the public URL is unusable, so there is nothing to derive it from.
        case missing
    }

    package var from: String
    package var fromOrigin: FromOrigin
    package var fromName: String?
    package var transport: Transport
    package var fileDirectory: String
    package var smtp: SMTPSettings?
    package var delivery: DeliveryPolicy

    init(_ read: inout ConfigSectionReader, publicHost: String?, environment: [String: String]) {
        let configuredFrom = read.string("mail.from")
        from = configuredFrom ?? publicHost.map { "no-reply@\($0)" } ?? ""
        fromOrigin = configuredFrom != nil ? .configured : publicHost != nil ? .derivedFromPublicURL : .missing
        fromName = read.string("mail.fromName")
        transport = read.choice("mail.transport", default: Transport.file)
        fileDirectory = read.string("mail.file.directory") ?? "data/outbox"
        delivery = DeliveryPolicy()
        delivery.workers = read.int("mail.workers", default: delivery.workers, in: 0...64)
        delivery.maximumAttempts = read.int("mail.maxAttempts", default: delivery.maximumAttempts, in: 1...100)
        delivery.firstDelay = TimeInterval(read.int("mail.retry.firstDelaySeconds", default: 5, in: 1...3600))
        delivery.maximumDelay = TimeInterval(read.int("mail.retry.maximumDelaySeconds", default: 600, in: 1...86_400))
        delivery.lease = TimeInterval(read.int("mail.retry.leaseSeconds", default: 60, in: 5...3600))
        let (sender, workers) = ((from, fromOrigin), max(delivery.workers, 1))
        let readSMTP = { (read: inout ConfigSectionReader) in
            SMTPSettings(&read, envelopeFrom: sender, workers: workers, environment: environment)
        }
        if transport == .smtp {
            smtp = readSMTP(&read)
        } else {
            // A file-transport configuration may keep its `mail.smtp` section for later: its keys are not unknown.
            read.learnKeys { _ = readSMTP(&$0) }
            smtp = nil
        }
        if let smtp, delivery.lease <= TimeInterval(smtp.timeoutSeconds) {
            // A lease shorter than a send could hand the same message to a second worker mid-send.
            read.problems.add("mail.retry.leaseSeconds", "must be longer than mail.smtp.timeoutSeconds (\(smtp.timeoutSeconds))")
        }
    }
}

extension MailConfiguration {
    /// What to report under `mail.from` when the sender address is refused for `reason`: the address and where it
    /// came from, or nil when there is none because `publicURL` is unusable (its own problem says what to fix).
    static func fromProblem(_ from: String, origin: FromOrigin, reason: String) -> String? {
        switch origin {
        case .configured: "\"\(from)\" is not usable: \(reason)"
        case .derivedFromPublicURL: "not set, and the default derived from publicURL, \"\(from)\", is not usable: \(reason); set mail.from"
        case .missing: nil
        }
    }
}
