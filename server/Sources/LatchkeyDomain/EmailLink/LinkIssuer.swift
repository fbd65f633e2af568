import Foundation
import Logging

/// Issues sign-in links: stores the pending request and queues its email in one transaction.
///
/// It never looks the account up, so the answer is the same for unknown, existing and disabled accounts.
package struct LinkIssuer: Sendable {
    /// What the app asked for, already validated by the HTTP layer.
    package struct Request: Sendable {
        package var email: EmailAddress
        package var settings: ActionCodeSettings
        package var language: LanguageTag
        package var apiKey: String
        package var caller: Caller

        package init(email: EmailAddress, settings: ActionCodeSettings, language: LanguageTag, apiKey: String, caller: Caller) {
            self.email = email
            self.settings = settings
            self.language = language
            self.apiKey = apiKey
            self.caller = caller
        }
    }

    /// Earlier codes stay valid, as with Firebase, but no more than this many per address.
    package static let maximumOutstandingCodes = 5

    let secret: ServerSecret
    let clock: any WallClock
    let outbox: OutboxSignal
    let publicURL: URL
    let codeLifetime: TimeInterval
    /// Whether emails show a typed code beside the link (`emailLink.typedCode`).
    let showsTypedCode: Bool
    /// Development mode logs each link, as Firebase's emulator does, and why a send mailed nothing.
    let isDevelopment: Bool
    let enumerationProtection: Bool
    let limiter: RateLimiter
    let metrics: SignInMetrics

    package init(
        secret: ServerSecret, clock: any WallClock, outbox: OutboxSignal, publicURL: URL,
        codeLifetime: TimeInterval, showsTypedCode: Bool = false, isDevelopment: Bool, enumerationProtection: Bool, limiter: RateLimiter,
        metrics: SignInMetrics = SignInMetrics()
    ) {
        self.showsTypedCode = showsTypedCode
        self.secret = secret
        self.clock = clock
        self.outbox = outbox
        self.publicURL = publicURL
        self.codeLifetime = codeLifetime
        self.isDevelopment = isDevelopment
        self.enumerationProtection = enumerationProtection
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Creates the code, stores its hash with the sealed letter the outbox renders, and wakes the outbox. With `sendsEmail` false
    /// (an admin's `returnOobLink`) nothing is mailed and the caller gets the link instead.
    ///
    /// The attempt counts against the per-address and per-IP limits (an admin's against none) in the same transaction;
    /// a full window throws `RateLimited` and stores nothing, except that with enumeration protection a full
    /// per-address window answers nil, as if the link were sent: "too many" would tell a prober that someone just asked
    /// for this address. So does an address on cool-off (`CoolOffs`), unless an admin asks.
    @discardableResult
    package func issue(_ request: Request, sendsEmail: Bool = true, logger: Logger) async throws -> (code: String, link: ActionLink)? {
        let now = clock.now
        let code = LinkCode.make(at: now)
        let link = ActionLink(publicURL: publicURL, code: code, apiKey: request.apiKey, settings: request.settings, language: request.language)
        // An admin's link (no email) has no typed code: the code exists only to be read in the email.
        let typedCode = showsTypedCode && sendsEmail ? TypedCode.make() : nil
        var letter = SignInLetter(
            link: link, typedCode: typedCode, language: request.language, expiresInMinutes: Int((codeLifetime / 60).rounded(.up)), requestedAt: now,
            requester: request.caller.requester)
        letter.reportLink = try SignInReport(email: request.email, issuedAt: now).link(publicURL: publicURL, secret: secret, language: request.language)
        var stored = PendingRequest(
            codeHash: LinkCode.key(code, secret: secret), email: request.email, createdAt: now, expiresAt: now.addingTimeInterval(codeLifetime),
            language: request.language, settings: request.settings)
        stored.typedCodeHash = typedCode.map { TypedCode.hash($0, email: request.email, secret: secret) }
        let pending = stored
        let queued = try letter.queued(to: request.email, secret: secret, at: now)
        let requester = request.caller.requester
        let limits = request.caller.limits([.init(.sendPerEmail, request.email.value), .init(.sendPerIP, request.caller.ipAddress)])
        let coolsOff = sendsEmail && !request.caller.isAdmin
        let issued: Bool
        do {
            issued = try await limiter.write(counting: limits, email: request.email, requester: requester) { transaction in
                // An address whose owner said "this wasn't me" gets nothing for a while, answered like a send.
                if coolsOff, try await transaction.coolOff(for: request.email, at: now) != nil { return false }
                try await transaction.insert(pending)
                try await transaction.record(
                    AuditEvent(.codeIssued, at: now, email: request.email, requester: requester, detail: sendsEmail ? nil : "returned to admin"))
                try await transaction.dropOutstandingRequests(for: pending.email, action: .signIn, keepingNewest: Self.maximumOutstandingCodes)
                if sendsEmail { try await transaction.enqueue(queued) }
                return true
            }
        } catch let refusal as RateLimited {
            try DroppedSend.check(refusal, enumerationProtection: enumerationProtection)
                .log(to: request.email, isDevelopment: isDevelopment, metrics: metrics, logger: logger)
            return nil
        }
        guard issued else {
            DroppedSend.coolOff.log(to: request.email, isDevelopment: isDevelopment, metrics: metrics, logger: logger)
            return nil
        }
        metrics.count(code: .issued)
        if sendsEmail {
            metrics.count(email: .queued)
            outbox.nudge()
        }
        logger.debug("Sign-in link issued", metadata: ["email": "\(request.email.redacted)"])
        if isDevelopment {
            logger.debug("Development mode: sign-in link", metadata: ["link": "\(link.url)"])
        }
        return (code, link)
    }
}
