/// Wakes the outbox delivery service as soon as a message is queued, instead of waiting for its next poll.
package struct OutboxSignal: Sendable {
    package let wakeUps: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init() {
        (wakeUps, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    package func nudge() {
        continuation.yield()
    }
}
