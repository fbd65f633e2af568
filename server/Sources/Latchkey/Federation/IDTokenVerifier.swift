import Crypto
import Foundation
import JWTKit
import LatchkeyDomain

/// Checks an identity provider's ID token as OpenID Connect Core §3.1.3.7 asks: signed by one of the provider's
/// published keys with an allowed algorithm, issued by the provider for this client, current, and carrying the nonce
/// this sign-in expects. What it returns is what the rest of Latchkey may believe.
package struct IDTokenVerifier: Sendable {
    /// How the token's `nonce` claim is checked.
    package enum NonceCheck: Sendable {
        /// A flow Latchkey started: the claim must equal the nonce it sent.
        case equals(String)
        /// A token an app obtained itself, with the raw nonce it hashed into the request, if any: a token with a nonce
        /// claim needs it, and the claim must be the lower-case hex SHA-256 of it.
        case hashOf(String?)
    }

    /// Asymmetric algorithms only: never `none`, and never HMAC, whose "key" would be the provider's public key.
    static let allowedAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"]

    let discovery: ProviderDiscovery
    let clock: any WallClock

    package init(discovery: ProviderDiscovery, clock: any WallClock) {
        self.discovery = discovery
        self.clock = clock
    }

    package func verify(_ token: String, from provider: IdentityProviderSettings, nonce: NonceCheck) async throws(ProviderFailure) -> VerifiedIdentity {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384, let header = Self.json(parts[0]), let claims = Self.json(parts[1]) else {
            throw .invalidResponse("the ID token is not a signed JWT")
        }
        guard let algorithm = header["alg"] as? String, Self.allowedAlgorithms.contains(algorithm) else {
            throw .invalidResponse("the ID token's algorithm is not allowed")
        }
        let metadata = try await discovery.metadata(for: provider)
        guard metadata.signingAlgorithms.contains(algorithm) else { throw .invalidResponse("the provider does not sign with the token's algorithm") }
        let kid = header["kid"] as? String
        try await verifySignature(token, algorithm: algorithm, kid: kid, metadata: metadata)
        try check(claims, provider: provider, nonce: nonce)
        return identity(claims, raw: parts[1], token: token, provider: provider)
    }

    private func verifySignature(_ token: String, algorithm: String, kid: String?, metadata: ProviderMetadata) async throws(ProviderFailure) {
        let keys = try await discovery.keys(of: metadata, forKeyID: kid)
        for key in keys.candidates(kid: kid, algorithm: algorithm) where (try? await key.verifier.verify(token, as: SignatureOnly.self)) != nil {
            return
        }
        throw .invalidResponse(kid.map { keys.contains($0) } == false ? "the ID token names an unknown key" : "the ID token's signature is invalid")
    }

    private func check(_ claims: [String: Any], provider: IdentityProviderSettings, nonce: NonceCheck) throws(ProviderFailure) {
        guard claims["iss"] as? String == provider.issuer.absoluteString else { throw .invalidResponse("the ID token is from another issuer") }
        let audiences = (claims["aud"] as? [String]) ?? (claims["aud"] as? String).map { [$0] } ?? []
        guard audiences.contains(provider.clientID) else { throw .invalidResponse("the ID token is for another client") }
        if audiences.count > 1, claims["azp"] as? String != provider.clientID { throw .invalidResponse("the ID token is for another client") }
        let now = clock.now.timeIntervalSince1970
        let skew = TimeInterval(provider.clockSkewSeconds)
        guard let expiry = Self.seconds(claims["exp"]), expiry > now - skew else { throw .invalidResponse("the ID token has expired") }
        guard let issued = Self.seconds(claims["iat"]), issued <= now + skew else { throw .invalidResponse("the ID token is issued in the future") }
        guard let subject = claims["sub"] as? String, (1...255).contains(subject.count) else {
            throw .invalidResponse("the ID token has no valid sub")
        }
        // A nonce that is not a string is no nonce anyone sent: refused, not taken for an absent one.
        if claims["nonce"] != nil, !(claims["nonce"] is String) { throw .invalidNonce }
        let claimed = claims["nonce"] as? String
        switch nonce {
        case .equals(let expected):
            guard claimed == expected else { throw .invalidNonce }
        case .hashOf(let raw):
            guard let claimed else { return }
            guard let raw, claimed == SHA256.hex(raw) else { throw .invalidNonce }
        }
    }

    private func identity(_ claims: [String: Any], raw: Substring, token: String, provider: IdentityProviderSettings) -> VerifiedIdentity {
        func text(_ name: String) -> String? { (claims[name] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        let email = text("email").flatMap { EmailAddress($0) }
        let vouched: Bool
        switch provider.emailTrust {
        case .always: vouched = true
        case .never: vouched = false
        // Facebook never says whether an address is proven: only `always` vouches for its addresses.
        case .claim: vouched = provider.providerID != BuiltInIdentityProvider.facebook.rawValue && Self.claimsVerifiedEmail(raw)
        }
        return VerifiedIdentity(
            providerID: provider.providerID, subject: text("sub") ?? "", email: email, isEmailVerified: email != nil && vouched,
            displayName: text("name"), firstName: text("given_name"), lastName: text("family_name"), photoURL: text("picture"),
            screenName: text("screen_name") ?? text("preferred_username"), rawUserInfo: String(decoding: Self.base64URL(raw) ?? Data(), as: UTF8.self),
            idToken: token)
    }

    /// Whether the payload's `email_verified` is `true` or Apple's string `"true"`, read with Latchkey's own parser:
    /// JSONSerialization hands a number over as a value that also reads as a boolean, so `1` would pass for `true`.
    private static func claimsVerifiedEmail(_ payload: Substring) -> Bool {
        guard let data = base64URL(payload), case .object(let claims)? = try? JSONParser.parse(data) else { return false }
        switch claims["email_verified"] {
        case .bool(true)?, .string("true")?: return true
        default: return false
        }
    }

    /// A JSON object from one base64url part of a compact JWS.
    private static func json(_ part: Substring) -> [String: Any]? {
        guard let data = base64URL(part) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func base64URL(_ part: Substring) -> Data? {
        Data(base64URLEncoded: String(part))
    }

    /// A NumericDate: JSON number of seconds (JSONSerialization gives Int or Double).
    private static func seconds(_ value: Any?) -> TimeInterval? {
        switch value {
        case let number as Int: TimeInterval(number)
        case let number as Double: number
        default: nil
        }
    }
}
