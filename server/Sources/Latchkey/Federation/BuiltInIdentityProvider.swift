import Foundation

/// The identity providers Latchkey knows by name, as Firebase does: their issuers are built in, so configuring one
/// takes only a client id (and a secret for the code flow).
package enum BuiltInIdentityProvider: String, Sendable, CaseIterable {
    case google = "google.com"
    case apple = "apple.com"
    case facebook = "facebook.com"
    case yahoo = "yahoo.com"

    /// The issuer its ID tokens name, where its OpenID Connect discovery document is.
    var issuer: URL? {
        switch self {
        case .google: URL(string: "https://accounts.google.com")
        case .apple: URL(string: "https://appleid.apple.com")
        // Facebook Limited Login's ID tokens.
        case .facebook: URL(string: "https://www.facebook.com")
        case .yahoo: URL(string: "https://api.login.yahoo.com")
        }
    }
}
