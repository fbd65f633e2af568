import Crypto
import Foundation

/// A sign-in with a provider that `createAuthUri` started, kept until the provider's answer comes back with its `state`:
/// single use and short-lived (`idp.authSessionTtlSeconds`).
///
/// Only the state's keyed hash is stored. The nonce and PKCE verifier sent with the state are derived from it under
/// the server secret (`ProviderSession.Secrets`), so nothing in the database lets anyone finish someone's sign-in.
package struct ProviderSession: Sendable, Equatable {
    package var stateHash: Data
    /// The `sessionId` the caller gave (the iOS SDK's hex SHA-256 of the id it later sends), the hex SHA-256 of a web
    /// page's `eventId` (hosted page), or one Latchkey made.
    package var sessionID: String
    package var providerID: String
    /// `continueUri`: where the provider sends the browser back, which the code exchange must name again.
    package var redirectURI: String
    /// The caller's `context`, echoed by `signInWithIdp`.
    package var context: String?
    /// Where the hosted handler hands the result over when it started the sign-in (`ProviderHandoff`, as JSON).
    package var handoff: String?
    package var createdAt: Date
    package var expiresAt: Date

    package init(
        stateHash: Data, sessionID: String, providerID: String, redirectURI: String, context: String? = nil, handoff: String? = nil,
        createdAt: Date, expiresAt: Date
    ) {
        self.stateHash = stateHash
        self.sessionID = sessionID
        self.providerID = providerID
        self.redirectURI = redirectURI
        self.context = context
        self.handoff = handoff
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether `sessionID`, as `signInWithIdp` received it, is this session's. A session started with a hex SHA-256
    /// (the iOS SDK hands the hosted page the hash, which that page's URL carries, and the server the raw id; a web
    /// page's hand-off carries the hash of the `eventId` the page keeps) is matched only by the id it hashes, never by
    /// the hash itself, so a hand-off taken to another browser finishes nothing there; any other only by the same string.
    package func isSession(_ sessionID: String?) -> Bool {
        guard let sessionID, !sessionID.isEmpty else { return false }
        guard Self.isSHA256Hex(self.sessionID) else { return sessionID == self.sessionID }
        return SHA256.hex(sessionID) == self.sessionID.lowercased()
    }

    /// 64 hex digits: the shape of a hex SHA-256, which a session id Latchkey makes (base64url) never has.
    private static func isSHA256Hex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.allSatisfy(\.isHexDigit)
    }

    /// The unguessable values of one sign-in: the `state` that names it, and the nonce and PKCE verifier derived from it.
    package struct Secrets: Sendable {
        package let state: String
        package let nonce: String
        package let codeVerifier: String

        /// A new sign-in's values.
        package init(secret: ServerSecret) {
            self.init(state: ServerSecret.makeToken(), secret: secret)
        }

        /// The values of the sign-in named by `state`.
        package init(state: String, secret: ServerSecret) {
            self.state = state
            nonce = secret.hash(state, for: .providerNonce).base64URLEncoded()
            // 43 characters of base64url: the shortest verifier RFC 7636 allows, carrying 256 bits.
            codeVerifier = secret.hash(state, for: .codeVerifier).base64URLEncoded()
        }

        /// RFC 7636's S256 challenge.
        package var codeChallenge: String { Data(SHA256.hash(data: Data(codeVerifier.utf8))).base64URLEncoded() }
    }
}

extension SHA256 {
    /// Lower-case hex of the SHA-256 of `text`'s UTF-8.
    package static func hex(_ text: String) -> String {
        hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
