import Foundation
import Latchkey
import LatchkeyDomain
import Synchronization

/// A transport that records what it was given and fails on demand, for outbox unit tests.
final class RecordingMailTransport: MailTransport {
    struct Failure: PermanentFailure, CustomStringConvertible {
        let isPermanent: Bool
        var description: String { isPermanent ? "550 mailbox unavailable" : "451 try again later" }
    }

    private let state = Mutex<(delivered: [Int64], messages: [String], failuresToGo: Int, permanent: Bool)>(([], [], 0, false))

    /// The next `count` deliveries fail, temporarily or permanently.
    func fail(next count: Int, permanently: Bool = false) {
        state.withLock { $0.failuresToGo = count; $0.permanent = permanently }
    }

    var delivered: [Int64] { state.withLock { $0.delivered } }
    /// The delivered messages' bytes, as text, in delivery order.
    var messages: [String] { state.withLock { $0.messages } }

    func deliver(_ message: [UInt8], to recipient: EmailAddress, id: Int64) async throws {
        try state.withLock { state in
            if state.failuresToGo > 0 {
                state.failuresToGo -= 1
                throw Failure(isPermanent: state.permanent)
            }
            state.delivered.append(id)
            state.messages.append(String(decoding: message, as: UTF8.self))
        }
    }
}
