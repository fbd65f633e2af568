import Foundation
import Latchkey
import LatchkeyDomain
import Synchronization

/// A text gateway that records what it was given and fails on demand, for outbox unit tests.
final class RecordingTextGateway: TextGateway {
    private let state = Mutex<(texts: [OutgoingText], failuresToGo: Int, permanent: Bool)>(([], 0, false))

    /// The next `count` deliveries fail, temporarily (a 503) or permanently (a 400).
    func fail(next count: Int, permanently: Bool = false) {
        state.withLock {
            $0.failuresToGo = count; $0.permanent = permanently
        }
    }

    /// The delivered texts, in delivery order.
    var texts: [OutgoingText] { state.withLock { $0.texts } }

    func deliver(_ text: OutgoingText) async throws {
        try state.withLock { state in
            if state.failuresToGo > 0 {
                state.failuresToGo -= 1
                throw state.permanent
                    ? TextDeliveryError.refused(gateway: "recording", status: 400, code: 21211)
                    : TextDeliveryError.unavailable(gateway: "recording", reason: "HTTP 503")
            }
            state.texts.append(text)
        }
    }
}

extension TextDelivery {
    /// The repository's text templates and `gateway`, for outbox tests.
    static func recording(_ gateway: RecordingTextGateway = RecordingTextGateway()) async throws -> TextDelivery {
        TextDelivery(
            renderer: try TextRenderer(templates: await TestTemplates.library(), appName: "Example", webOTPHost: "auth.example.com"), gateway: gateway
        )
    }
}
