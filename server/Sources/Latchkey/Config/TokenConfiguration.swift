import Foundation
import LatchkeyDomain

/// How ID tokens are signed.
///
/// - `tokens.issuer` (string, default the public URL): the `iss` claim. Set it to
///   `https://securetoken.google.com/PROJECT_ID` for backends that verify with a Firebase Admin SDK.
/// - `tokens.idTokenLifetimeSeconds` (integer, default `3600`, 60 to 86400).
/// - `tokens.algorithm` (`"RS256"` or `"ES256"`, default `"RS256"`): the kind of signing key `latchkey init` and
///   `latchkey keys rotate` create. ES256 signs several times faster; RS256 is what every Firebase-era verifier
///   expects. The newest key signs whatever this says (`SigningKeySchedule`): moving to the other kind is `latchkey
///   keys rotate --algorithm`, and start-up warns when the newest key is of another kind.
/// - `tokens.rotationDelaySeconds` (integer, default `3600`, 0 to 2592000): how long a key added by `latchkey keys
///   rotate` is only published before it signs, so that verifiers, which cache the JWKS (`max-age` 3600), hold it
///   before any token names it. `0` signs at once; other instances load it within seconds.
/// - `tokens.keyDirectory` (string, default `"data/keys"`): where signing keys were kept as PEM files up to 0.8.
///   Signing keys now live in the store, sealed with the server secret; the directory is read only when the store
///   holds no key yet, to import its files (active at once, keeping their ids).
package struct TokenConfiguration: Sendable {
    /// The longest `tokens.idTokenLifetimeSeconds` allowed: a day.
    package static let longestIDTokenLifetimeSeconds = 86_400

    package var issuer: String
    package var algorithm: SigningAlgorithm
    package var idTokenLifetimeSeconds: Int
    package var rotationDelaySeconds: Int
    package var keyDirectory: String

    /// Firebase's session cookies name `https://session.firebase.google.com/PROJECT_ID` as their issuer.
    static let sessionCookieIssuerPrefix = "https://session.firebase.google.com/"

    init(_ read: inout ConfigSectionReader, publicURL: URL) {
        issuer = read.string("tokens.issuer") ?? publicURL.absoluteString
        if issuer.hasPrefix(Self.sessionCookieIssuerPrefix) {
            // ID tokens and session cookies share their audience: only the issuer tells one from the other.
            read.problems.add("tokens.issuer", "must not be a session-cookie issuer (\(Self.sessionCookieIssuerPrefix)…)")
        }
        idTokenLifetimeSeconds = read.int("tokens.idTokenLifetimeSeconds", default: 3600, in: 60...Self.longestIDTokenLifetimeSeconds)
        rotationDelaySeconds = read.int("tokens.rotationDelaySeconds", default: 3600, in: 0...2_592_000)
        keyDirectory = read.string("tokens.keyDirectory") ?? "data/keys"
        algorithm = read.choice("tokens.algorithm", default: SigningAlgorithm.rs256)
    }
}
