import Foundation

/// How ID tokens are signed.
///
/// - `tokens.issuer` (string, default the public URL): the `iss` claim. Set it to
///   `https://securetoken.google.com/PROJECT_ID` for backends that verify with a Firebase Admin SDK.
/// - `tokens.idTokenLifetimeSeconds` (integer, default `3600`, 60 to 86400).
/// - `tokens.algorithm` (`"RS256"` or `"ES256"`, default `"RS256"`): how new ID tokens are signed. ES256 signs
///   several times faster; RS256 is what every Firebase-era verifier expects. Keys of both kinds stay published.
/// - `tokens.keyDirectory` (string, default `"data/keys"`): where the signing keys are kept; a key is
///   created there by `latchkey init` (or by `serve` in development mode).
package struct TokenConfiguration: Sendable {
    /// The JWS algorithms ID tokens can be signed with.
    package enum Algorithm: String, Sendable, CaseIterable {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    package var issuer: String
    package var algorithm: Algorithm
    package var idTokenLifetimeSeconds: Int
    package var keyDirectory: String

    init(_ read: inout ConfigSectionReader, publicURL: URL) {
        issuer = read.string("tokens.issuer") ?? publicURL.absoluteString
        idTokenLifetimeSeconds = read.int("tokens.idTokenLifetimeSeconds", default: 3600, in: 60...86_400)
        keyDirectory = read.string("tokens.keyDirectory") ?? "data/keys"
        algorithm = read.choice("tokens.algorithm", default: Algorithm.rs256)
    }
}
