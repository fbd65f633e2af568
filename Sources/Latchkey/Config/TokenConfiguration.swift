import Foundation

/// How ID tokens are signed.
///
/// - `tokens.issuer` (string, default the public URL): the `iss` claim. Set it to
///   `https://securetoken.google.com/PROJECT_ID` for backends that verify with a Firebase Admin SDK.
/// - `tokens.idTokenLifetimeSeconds` (integer, default `3600`, 60 to 86400).
/// - `tokens.keyDirectory` (string, default `"data/keys"`): where the signing keys are kept; a key is
///   created there on first start.
package struct TokenConfiguration: Sendable {
    package var issuer: String
    package var idTokenLifetimeSeconds: Int
    package var keyDirectory: String

    init(_ read: inout ConfigSectionReader, publicURL: URL) {
        issuer = read.string("tokens.issuer") ?? publicURL.absoluteString
        idTokenLifetimeSeconds = read.int("tokens.idTokenLifetimeSeconds", default: 3600, in: 60...86_400)
        keyDirectory = read.string("tokens.keyDirectory") ?? "data/keys"
    }
}
