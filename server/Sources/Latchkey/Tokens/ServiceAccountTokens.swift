import Foundation
import JWTKit
import LatchkeyDomain

/// Checks custom tokens against the configured service accounts (`serviceAccounts`): the domain's `CustomTokenVerifier`.
///
/// A custom token is what the Admin SDKs mint (firebase-admin-python `firebase_admin/_token_gen.py`,
/// `create_custom_token`; firebase-admin-node `src/auth/token-generator.ts`): an RS256 JWT whose `iss` and `sub` are the
/// service account's address, `aud` Identity Toolkit's URL, `uid` the user, at most an hour between `iat` and `exp`,
/// optional `claims` and `tenant_id`, and `kid` the account's `private_key_id`.
package struct ServiceAccountTokens: CustomTokenVerifier {
    /// The `aud` of every custom token (firebase-tools `src/emulator/auth/operations.ts`, `CUSTOM_TOKEN_AUDIENCE`).
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// The Admin SDKs mint tokens for an hour, the most Firebase accepts.
    static let longestLifetime: TimeInterval = 3600
    /// Clocks of the backend and of Latchkey may differ this much.
    static let clockSkew: TimeInterval = 60
    /// A custom token is a few hundred bytes; nothing this long is one.
    static let longestToken = 16_384

    struct Account: Sendable {
        let projectID: String
        let keys: ProviderKeySet
        let keysURL: URL?
    }

    /// By address.
    let accounts: [String: Account]
    let projectID: String
    /// Development mode: the unsigned tokens (`alg: none`) the Admin SDKs mint for an emulator are accepted.
    let acceptsUnsigned: Bool
    /// Fetches and keeps the keys of accounts with a `keysURL`, as it does identity providers'.
    let discovery: ProviderDiscovery
    let clock: any WallClock

    package init(
        _ configuration: ServiceAccountsConfiguration, projectID: String, acceptsUnsigned: Bool, discovery: ProviderDiscovery, clock: any WallClock
    ) async {
        var accounts: [String: Account] = [:]
        for account in configuration.accounts {
            accounts[account.email.lowercased()] = Account(
                projectID: account.projectID, keys: await ProviderKeySet(pems: account.keys), keysURL: account.keysURL)
        }
        self.accounts = accounts
        self.projectID = projectID
        self.acceptsUnsigned = acceptsUnsigned
        self.discovery = discovery
        self.clock = clock
    }

    /// What signs custom tokens in, for the start-up line.
    package var summary: String {
        let count = accounts.count == 1 ? "1 service account" : "\(accounts.count) service accounts"
        return acceptsUnsigned ? "\(count), and unsigned emulator tokens (development mode)" : count
    }

    package func verify(_ token: String) async throws(SignInError) -> CustomTokenAssertion {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= Self.longestToken, parts.count == 3, case .object(let header)? = Self.json(parts[0]),
            case .object(let claims)? = Self.json(parts[1])
        else { throw .invalidCustomToken("Invalid assertion format") }
        switch header["alg"] {
        case .string("none")? where acceptsUnsigned && parts[2].isEmpty:
            break
        case .string("RS256")?:
            try await checkSigner(token, kid: header["kid"]?.stringValue, issuer: claims["iss"]?.stringValue, subject: claims["sub"]?.stringValue)
        case .string("none")?:
            throw .invalidCustomToken("Unsigned custom tokens are accepted in development mode only.")
        default:
            throw .invalidCustomToken("The custom token must be signed with RS256.")
        }
        guard claims["aud"]?.stringValue == Self.audience else {
            throw .invalidCustomToken("The custom token's aud must be \(Self.audience); Firebase ID tokens cannot sign in as custom tokens.")
        }
        try checkLifetime(issuedAt: claims["iat"]?.seconds, expiry: claims["exp"]?.seconds)
        return CustomTokenAssertion(
            uid: claims["uid"]?.stringValue, claims: claims["claims"].map(Self.text(of:)), tenantID: claims["tenant_id"]?.stringValue)
    }

    /// The signature, by a key of the service account `iss` names (`sub` must name it too), of this project.
    private func checkSigner(_ token: String, kid: String?, issuer: String?, subject: String?) async throws(SignInError) {
        guard let issuer, issuer == subject, let account = accounts[issuer.lowercased()] else {
            throw .invalidCustomToken("The custom token is not signed by a service account this server knows (serviceAccounts).")
        }
        try await checkSignature(token, kid: kid, of: account)
        // After the signature: a forger learns nothing of which accounts are configured.
        guard account.projectID == projectID else { throw .credentialMismatch }
    }

    private func checkSignature(_ token: String, kid: String?, of account: Account) async throws(SignInError) {
        var candidates = account.keys.candidates(kid: kid, algorithm: "RS256")
        if let url = account.keysURL, candidates.isEmpty || kid == nil {
            do {
                candidates += try await discovery.keys(at: url, forKeyID: kid).candidates(kid: kid, algorithm: "RS256")
            } catch {
                throw .invalidCustomToken("The service account's keys could not be fetched.")
            }
        }
        for key in candidates where (try? await key.verifier.verify(token, as: SignatureOnly.self)) != nil { return }
        throw .invalidCustomToken(candidates.isEmpty ? "The custom token names an unknown key." : "The custom token's signature is invalid.")
    }

    /// Issued no later than now, expiring after it and at most an hour after it was issued.
    private func checkLifetime(issuedAt: TimeInterval?, expiry: TimeInterval?) throws(SignInError) {
        guard let issuedAt, let expiry else { throw .invalidCustomToken("The custom token needs iat and exp.") }
        guard expiry > issuedAt, expiry - issuedAt <= Self.longestLifetime else {
            throw .invalidCustomToken("The custom token's lifetime must be at most one hour.")
        }
        let now = clock.now.timeIntervalSince1970
        guard issuedAt <= now + Self.clockSkew else { throw .invalidCustomToken("The custom token is issued in the future.") }
        guard expiry > now - Self.clockSkew else { throw .invalidCustomToken("The custom token has expired.") }
    }

    /// One base64url part of a compact JWS, read with Latchkey's own strict JSON parser.
    private static func json(_ part: Substring) -> JSONValue? {
        guard let data = Data(base64URLEncoded: String(part)) else { return nil }
        return try? JSONParser.parse(data)
    }

    /// A value written back as JSON text, for the domain's rules on custom claims.
    private static func text(of value: JSONValue) -> String {
        let encoder = JSONEncoder()
        // As compact as the backend likely wrote it: the 1,000-byte bound is on the claims, not on escapes added here.
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// A NumericDate: a JSON number of seconds.
    fileprivate var seconds: TimeInterval? {
        if case .number(let text) = self { TimeInterval(text) } else { nil }
    }
}
