import LatchkeyDomain

/// One text ready for a gateway: rendered, addressed, and named by its outbox row, which a receiver can use to drop a
/// repeated delivery (delivery is at least once: a text in flight when a process dies goes again).
package struct OutgoingText: Sendable, Equatable {
    package var id: Int64
    package var to: PhoneNumber
    package var body: String

    package init(id: Int64, to: PhoneNumber, body: String) {
        self.id = id
        self.to = to
        self.body = body
    }
}
