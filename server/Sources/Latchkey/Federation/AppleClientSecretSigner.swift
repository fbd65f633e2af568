import Crypto
import Foundation

/// Signs Sign in with Apple's `client_secret`: a short ES256 JWT the developer's Apple key signs, with the team as `iss`, the
/// app's client id as `sub` and Apple as `aud` (Apple's "Creating a client secret"). Latchkey makes one for each call
/// to Apple's token revocation, so that no long-lived secret is stored.
package struct AppleClientSecretSigner: Sendable, Equatable {
    /// How long a secret is good for: one call's worth (Apple accepts up to six months).
    static let lifetime: TimeInterval = 300

    let keyID: String
    let teamID: String
    private let key: P256.Signing.PrivateKey

    /// Reads the `.p8` key Apple hands out: a P-256 private key in PEM.
    package init(keyID: String, teamID: String, privateKeyPEM: String) throws {
        self.keyID = keyID
        self.teamID = teamID
        key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
    }

    package static func == (left: AppleClientSecretSigner, right: AppleClientSecretSigner) -> Bool {
        left.keyID == right.keyID && left.teamID == right.teamID && left.key.rawRepresentation == right.key.rawRepresentation
    }

    /// A secret for `clientID` at `issuer` (Apple's, `https://appleid.apple.com`), valid from `now` for `lifetime`.
    func secret(clientID: String, issuer: String, at now: Date) throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": keyID], options: .sortedKeys)
        let claims: [String: Any] = ["iss": teamID, "iat": issuedAt, "exp": issuedAt + Int(Self.lifetime), "aud": issuer, "sub": clientID]
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        let signingInput = "\(header.base64URLEncoded()).\(payload.base64URLEncoded())"
        // JWS ES256 signatures are r and s side by side (RFC 7518 §3.4), which is CryptoKit's raw representation.
        let signature = try key.signature(for: Data(signingInput.utf8)).rawRepresentation
        return "\(signingInput).\(signature.base64URLEncoded())"
    }
}
