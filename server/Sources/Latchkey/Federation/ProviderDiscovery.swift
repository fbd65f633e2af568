import Foundation
import LatchkeyDomain

/// Each provider's discovery document and keys (and each service account's published keys), fetched when first needed
/// and kept for as long as the provider's `Cache-Control: max-age` says (an hour when it says nothing, a day at most).
///
/// A token naming a key not in the kept set fetches the keys again (the provider rotated), at most once every ten
/// seconds per key URL, so that forged `kid`s cannot make Latchkey hammer it.
package actor ProviderDiscovery {
    private struct Kept<Value: Sendable>: Sendable {
        let value: Value
        let until: Date
    }

    static let defaultLifetime: TimeInterval = 3600
    static let longestLifetime: TimeInterval = 86_400
    static let keyRefetchInterval: TimeInterval = 10

    let http: ProviderHTTPClient
    private let clock: any WallClock
    /// `idp.allowInsecureIssuers`: every provider's `http://` issuer and endpoints are allowed, not only those of
    /// providers with `allowInsecureIssuer`.
    private let allowsInsecureIssuers: Bool
    private var metadata: [String: Kept<ProviderMetadata>] = [:]
    /// By the URL they were fetched from.
    private var keys: [String: Kept<ProviderKeySet>] = [:]
    private var lastKeyFetch: [String: Date] = [:]

    package init(http: ProviderHTTPClient = ProviderHTTPClient(), clock: any WallClock, allowsInsecureIssuers: Bool = false) {
        self.http = http
        self.clock = clock
        self.allowsInsecureIssuers = allowsInsecureIssuers
    }

    /// The provider's checked discovery document.
    func metadata(for provider: IdentityProviderSettings) async throws(ProviderFailure) -> ProviderMetadata {
        let issuer = provider.issuer.absoluteString
        if let kept = metadata[issuer], kept.until > clock.now { return kept.value }
        guard let url = ProviderMetadata.discoveryURL(of: provider.issuer) else { throw .invalidResponse("discovery failed: bad issuer") }
        let answer = try await http.get(url, "discovery")
        let fetched = try ProviderMetadata(
            document: answer.body, issuer: issuer, allowingHTTP: provider.allowsInsecureIssuer || allowsInsecureIssuers)
        metadata[issuer] = Kept(value: fetched, until: lifetime(answer))
        return fetched
    }

    /// The provider's keys; fetched again first when `kid` is one they lack and the last fetch is long enough ago.
    func keys(of metadata: ProviderMetadata, forKeyID kid: String?) async throws(ProviderFailure) -> ProviderKeySet {
        try await keys(at: metadata.jwksURI, forKeyID: kid)
    }

    /// The keys published at `url` (a JWKS, or a service account's x509 metadata), kept by the same rules. Within ten
    /// seconds of the last fetch nothing is fetched, whatever became of it: a failed or expired fetch answers the keys
    /// kept, if any, or a failure, so that neither forged `kid`s nor a provider that is down make a fetch per request.
    func keys(at url: URL, forKeyID kid: String?) async throws(ProviderFailure) -> ProviderKeySet {
        let now = clock.now
        let address = url.absoluteString
        if let kept = keys[address], kept.until > now, kid.map(kept.value.contains) ?? true { return kept.value }
        if let last = lastKeyFetch[address], now.timeIntervalSince(last) < Self.keyRefetchInterval {
            guard let kept = keys[address] else { throw .invalidResponse("keys failed: fetched less than \(Int(Self.keyRefetchInterval)) s ago") }
            return kept.value
        }
        lastKeyFetch[address] = now
        let answer = try await http.get(url, "keys")
        let fetched = try await ProviderKeySet(document: answer.body)
        keys[address] = Kept(value: fetched, until: lifetime(answer))
        return fetched
    }

    private func lifetime(_ answer: ProviderHTTPClient.Answer) -> Date {
        clock.now.addingTimeInterval(min(answer.maxAge ?? Self.defaultLifetime, Self.longestLifetime))
    }
}
