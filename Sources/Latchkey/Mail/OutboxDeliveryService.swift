import Foundation
import Logging
import ServiceLifecycle

/// Drains the durable outbox: leases due messages, delivers them, and records the outcome.
///
/// A message is marked sent only after the transport accepted it; a crash in between leaves the lease
/// to expire and the message is delivered again (at least once, never zero times).
package struct OutboxDeliveryService: Service, CustomStringConvertible {
    /// When failed deliveries are tried again.
    package struct RetryPolicy: Sendable {
        package var firstDelay: TimeInterval = 5
        package var maximumDelay: TimeInterval = 600
        package var maximumAttempts = 8
        package var lease: TimeInterval = 60

        package init() {}

        /// Exponential backoff with full jitter in the upper half, or `nil` once attempts are used up.
        func retryDelay(afterAttempt attempt: Int) -> TimeInterval? {
            guard attempt < maximumAttempts else { return nil }
            let delay = min(maximumDelay, firstDelay * pow(2, Double(attempt - 1)))
            return delay * Double.random(in: 0.5...1)
        }
    }

    let store: any LinkStore
    let secret: ServerSecret
    let transport: any MailTransport
    let clock: any WallClock
    let signal: OutboxSignal
    let policy: RetryPolicy
    let pollInterval: Duration
    let logger: Logger

    package init(
        store: any LinkStore, secret: ServerSecret, transport: any MailTransport, clock: any WallClock, signal: OutboxSignal,
        policy: RetryPolicy = RetryPolicy(), pollInterval: Duration = .seconds(1), logger: Logger
    ) {
        self.store = store
        self.secret = secret
        self.transport = transport
        self.clock = clock
        self.signal = signal
        self.policy = policy
        self.pollInterval = pollInterval
        self.logger = logger
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

    /// Delivers everything due now, batch by batch.
    func deliverDueMessages() async {
        while !Task.isShuttingDownGracefully {
            let now = clock.now
            let batch: [OutboxMessage]
            do {
                batch = try await store.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(policy.lease), limit: 20)
            } catch {
                logger.error("Outbox could not be read", metadata: ["error": "\(error)"])
                return
            }
            if batch.isEmpty { return }
            for message in batch {
                await deliver(message)
            }
        }
    }

    private func deliver(_ message: OutboxMessage) async {
        guard let id = message.id else { return }
        var metadata: Logger.Metadata = ["outbox.id": "\(id)", "email": "\(message.recipient.redacted)", "attempt": "\(message.attempts)"]
        do {
            let mime = try secret.open(message.sealedMessage)
            try await transport.deliver(Array(mime), to: message.recipient, id: id)
            try await store.markDelivered(outboxID: id, at: clock.now)
            logger.debug("Email delivered", metadata: metadata)
        } catch {
            let retryAt = policy.retryDelay(afterAttempt: message.attempts).map { clock.now.addingTimeInterval($0) }
            metadata["error"] = "\(error)"
            do {
                try await store.recordDeliveryFailure(outboxID: id, error: "\(error)", retryAt: retryAt)
            } catch {
                logger.error("Outbox failure could not be recorded", metadata: ["outbox.id": "\(id)", "error": "\(error)"])
            }
            if retryAt == nil {
                logger.error("Email delivery gave up", metadata: metadata)
            } else {
                logger.warning("Email delivery failed; will retry", metadata: metadata)
            }
        }
    }
}
