import Foundation
import LatchkeyDomain
import Logging
import ServiceLifecycle

/// Drains the durable outbox: leases due messages, delivers them (mail through the transport, texts through the SMS
/// gateway), and records the outcome.
///
/// A message is marked sent only after the transport accepted it; a crash in between leaves the lease
/// to expire and the message is delivered again (at least once, never zero times).
package struct OutboxDeliveryService: Service, CustomStringConvertible {
    let store: any Store
    let secret: ServerSecret
    let renderer: EmailRenderer
    let transport: any MailTransport
    let texts: TextDelivery
    let clock: any WallClock
    let signal: OutboxSignal
    let policy: DeliveryPolicy
    let pollInterval: Duration
    let logger: Logger
    let metrics: SignInMetrics

    package init(
        store: any Store, secret: ServerSecret, renderer: EmailRenderer, transport: any MailTransport, texts: TextDelivery, clock: any WallClock,
        signal: OutboxSignal,
        policy: DeliveryPolicy = DeliveryPolicy(), pollInterval: Duration = .seconds(1), logger: Logger, metrics: SignInMetrics = SignInMetrics()
    ) {
        self.store = store
        self.secret = secret
        self.renderer = renderer
        self.transport = transport
        self.texts = texts
        self.clock = clock
        self.signal = signal
        self.policy = policy
        self.pollInterval = pollInterval
        self.logger = logger
        self.metrics = metrics
    }

    /// ServiceLifecycle logs services by description; the default would dump every field.
    package var description: String { "OutboxDeliveryService" }

    package func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            // Retries fall due without anyone queueing mail, so a ticker wakes the loop too.
            group.addTask {
                while (try? await Task.sleep(for: pollInterval)) != nil {
                    signal.nudge()
                }
            }
            signal.nudge()
            for await _ in signal.wakeUps.cancelOnGracefulShutdown() {
                await deliverDueMessages()
            }
            group.cancelAll()
        }
    }

    /// Delivers everything due now, batch by batch, with up to `policy.workers` messages in flight.
    package func deliverDueMessages() async {
        while !Task.isShuttingDownGracefully {
            let batch: [ClaimedMessage]
            let (hostNow, lease, limit) = (clock.now, policy.lease, policy.workers * 4)
            do {
                // Due-ness and the lease's end come from the store's clock (PostgreSQL's, when instances share it),
                // read in the claiming transaction, so an instance whose host clock runs ahead takes over no live lease.
                batch = try await store.write { tx in
                    let now = try await tx.outboxNow(hostNow: hostNow)
                    return try await tx.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(lease), limit: limit)
                }
            } catch {
                logger.error("Outbox could not be read", metadata: ["error": "\(error)"])
                return
            }
            if batch.isEmpty { return }
            await withTaskGroup(of: Void.self) { group in
                var pending = batch[...]
                var unstarted: [OutboxClaim] = []
                for _ in 0..<policy.workers {
                    guard let message = pending.popFirst() else { break }
                    group.addTask { await deliver(message) }
                }
                while await group.next() != nil {
                    guard let message = pending.popFirst() else { continue }
                    if Task.isShuttingDownGracefully {
                        unstarted.append(contentsOf: ([message] + pending).map(\.claim))
                        pending = []
                    } else {
                        group.addTask { await deliver(message) }
                    }
                }
                await release(unstarted)
            }
        }
    }

    /// Hands back messages leased but not attempted, so they go out right after a restart instead of after the lease.
    private func release(_ claims: [OutboxClaim]) async {
        guard !claims.isEmpty else { return }
        do {
            try await store.write { try await $0.releaseOutboxMessages(claims) }
        } catch {
            logger.warning("Outbox leases not released; they expire on their own", metadata: ["error": "\(error)"])
        }
    }

    /// Opens `message` and hands it to its channel: a letter is rendered now into MIME, a text into its body, in the
    /// language and with the details it was queued with.
    private func send(_ message: OutboxMessage, id: Int64) async throws {
        let content = try secret.open(message.sealedContent)
        switch message.recipient {
        case .email(let address):
            try await transport.deliver(try mime(of: message.format, content, to: address), to: address, id: id)
        case .phone(let number):
            guard message.format == .verificationText else { throw MailError.unreadableLetter }
            let text = try VerificationText(decoding: content)
            try await texts.gateway.deliver(OutgoingText(id: id, to: number, body: texts.renderer.body(for: text)))
        }
    }

    private func mime(of format: OutboxMessage.Format, _ content: Data, to recipient: EmailAddress) throws -> [UInt8] {
        switch format {
        case .mime: return Array(content)
        case .signInLetter: return try renderer.message(for: SignInLetter(decoding: content), to: recipient).mimeData()
        case .securityNotice: return try renderer.message(for: SecurityNotice(decoding: content), to: recipient).mimeData()
        case .actionLetter: return try renderer.message(for: ActionLetter(decoding: content), to: recipient).mimeData()
        case .verificationText: throw MailError.unreadableLetter
        }
    }

    /// Sends one claimed message and records the outcome under its claim. Only a failed send is a failed delivery:
    /// when the store cannot record one that succeeded, the message stays leased and goes again after the lease (at
    /// least once), rather than being counted, retried early or given up as a failure.
    private func deliver(_ claimed: ClaimedMessage) async {
        let (message, claim, channel) = (claimed.message, claimed.claim, claimed.message.format.channel)
        var metadata: Logger.Metadata = ["outbox.id": "\(claim.messageID)", "attempt": "\(message.attempts)"]
        metadata[channel == .email ? "email" : "phone"] = "\(message.recipient.redacted)"
        do {
            try await send(message, id: claim.messageID)
        } catch {
            await recordFailure(claim, channel: channel, error: error, attempts: message.attempts, metadata: metadata)
            return
        }
        count(channel, .sent)
        do {
            let hostNow = clock.now
            if try await store.write({ tx in try await tx.markDelivered(claim, at: try await tx.outboxNow(hostNow: hostNow)) }) {
                logger.debug(channel == .email ? "Email delivered" : "Text delivered", metadata: metadata)
            } else {
                logger.warning(
                    channel == .email ? "Email delivered after its lease was taken over; it may go out twice"
                        : "Text delivered after its lease was taken over; it may go out twice", metadata: metadata)
            }
        } catch {
            metadata["error"] = "\(error)"
            logger.error(
                channel == .email ? "Email delivered but not recorded; it goes again when its lease ends"
                    : "Text delivered but not recorded; it goes again when its lease ends", metadata: metadata)
        }
    }

    private func count(_ channel: OutboxMessage.Channel, _ outcome: SignInMetrics.DeliveryOutcome) {
        switch channel {
        case .email: metrics.count(email: outcome)
        case .text: metrics.count(text: outcome)
        }
    }

    private func recordFailure(
        _ claim: OutboxClaim, channel: OutboxMessage.Channel, error: any Error, attempts: Int, metadata: Logger.Metadata
    ) async {
        var metadata = metadata
        let (delay, hostNow) = (policy.retryDelay(afterAttempt: attempts, error: error), clock.now)
        metadata["error"] = "\(error)"
        do {
            let text = "\(error)"
            // The retry time is counted from the clock the claims are judged by, so it falls due after `delay` on every instance.
            _ = try await store.write { tx in
                var retryAt: Date?
                if let delay { retryAt = try await tx.outboxNow(hostNow: hostNow).addingTimeInterval(delay) }
                return try await tx.recordDeliveryFailure(claim, error: text, retryAt: retryAt)
            }
        } catch {
            logger.error("Outbox failure could not be recorded", metadata: ["outbox.id": "\(claim.messageID)", "error": "\(error)"])
        }
        count(channel, delay == nil ? .failed : .retried)
        switch (channel, delay == nil) {
        case (.email, true): logger.error("Email delivery gave up", metadata: metadata)
        case (.email, false): logger.warning("Email delivery failed; will retry", metadata: metadata)
        case (.text, true): logger.error("Text delivery gave up", metadata: metadata)
        case (.text, false): logger.warning("Text delivery failed; will retry", metadata: metadata)
        }
    }
}
