import Crypto
import Foundation

/// Signs a webhook the way Standard Webhooks (standardwebhooks.com) does, so receivers can use its libraries:
/// `webhook-signature: v1,<base64 of HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`.
///
/// A secret written `whsec_<base64>` (that specification's form) is used as the bytes it encodes; any other secret
/// as its UTF-8 bytes.
struct WebhookSigner: Sendable {
    private let key: SymmetricKey

    init(secret: String) {
        if secret.hasPrefix("whsec_"), let decoded = Data(base64Encoded: String(secret.dropFirst(6))), !decoded.isEmpty {
            key = SymmetricKey(data: decoded)
        } else {
            key = SymmetricKey(data: Data(secret.utf8))
        }
    }

    /// The `webhook-signature` value for a message `id` sent at `timestamp` (Unix seconds) with `body`.
    func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        var signed = HMAC<SHA256>(key: key)
        signed.update(data: Data("\(id).\(timestamp).".utf8))
        signed.update(data: body)
        return "v1," + Data(signed.finalize()).base64EncodedString()
    }
}
