/// How many messages wait in the outbox and for how long the oldest has waited, in seconds.
package struct OutboxBacklog: Sendable, Equatable {
    package var count: Int
    package var oldestAge: Double

    package init(count: Int, oldestAge: Double) {
        self.count = count
        self.oldestAge = oldestAge
    }
}
