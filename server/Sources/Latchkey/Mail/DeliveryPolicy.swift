import Foundation

/// How the outbox delivers: how many messages at once, how long a lease lasts, and when failures are retried.
package struct DeliveryPolicy: Sendable {
    package var workers = 4
    package var firstDelay: TimeInterval = 5
    package var maximumDelay: TimeInterval = 600
    package var maximumAttempts = 8
    package var lease: TimeInterval = 60

    package init() {}

    /// Exponential backoff with jitter in the upper half, or `nil` when the failure is permanent
    /// (a 5xx reply, refused credentials) or the attempts are used up.
    package func retryDelay(afterAttempt attempt: Int, error: any Error) -> TimeInterval? {
        if let failure = error as? any PermanentFailure, failure.isPermanent { return nil }
        guard attempt < maximumAttempts else { return nil }
        let delay = min(maximumDelay, firstDelay * pow(2, Double(max(0, attempt - 1))))
        return delay * Double.random(in: 0.5...1)
    }
}

/// An error that knows whether trying again could help.
package protocol PermanentFailure: Error {
    var isPermanent: Bool { get }
}
