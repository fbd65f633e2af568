import Foundation
import LatchkeyDomain

/// `sms.gateway: "webhook"`: each text as a JSON POST (`{"id","to","body"}`) to the operator's endpoint, which hands
/// it to whatever provider they use, signed with Standard Webhooks' headers (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature`) so the endpoint can tell it came from Latchkey and is fresh. A 2xx is accepted.
package struct WebhookTextGateway: TextGateway {
    /// The JSON body; `id` is the outbox row's, the same on every attempt (and the `webhook-id` header).
    struct Payload: Encodable {
        let id: String
        let to: String
        let body: String
    }

    let url: URL
    let signer: WebhookSigner
    let http: GatewayHTTPClient
    let clock: any WallClock

    package init(url: URL, secret: String, deadlineSeconds: Int, clock: any WallClock) {
        self.url = url
        self.signer = WebhookSigner(secret: secret)
        self.http = GatewayHTTPClient(name: "webhook", deadlineSeconds: deadlineSeconds)
        self.clock = clock
    }

    package func deliver(_ text: OutgoingText) async throws {
        let id = String(text.id)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = Array(try encoder.encode(Payload(id: id, to: text.to.value, body: text.body)))
        let timestamp = Int(clock.now.timeIntervalSince1970)
        _ = try await http.post(
            url, body: body,
            headers: [
                ("Content-Type", "application/json"), ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
                ("webhook-signature", signer.signature(id: id, timestamp: timestamp, body: body)),
            ])
    }
}
