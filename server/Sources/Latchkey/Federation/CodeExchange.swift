import Foundation

/// Exchanges an authorization code for the provider's tokens at its token endpoint (OAuth 2.0 §4.1.3, OpenID Connect
/// Core §3.1.3), authenticating as the client. The code is sent once, whatever the answer.
struct CodeExchange: Sendable {
    /// What the token endpoint answered.
    struct Tokens: Sendable {
        let idToken: String
        let accessToken: String?
        let expiresIn: Int?
        let refreshToken: String?
    }

    private struct Answer: Decodable {
        let id_token: String?
        let access_token: String?
        let expires_in: Int?
        let refresh_token: String?
        let error: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id_token = try? container.decodeIfPresent(String.self, forKey: .id_token)
            access_token = try? container.decodeIfPresent(String.self, forKey: .access_token)
            // Some providers send the lifetime as a string.
            expires_in = (try? container.decodeIfPresent(Int.self, forKey: .expires_in))
                ?? (try? container.decodeIfPresent(String.self, forKey: .expires_in)).flatMap { $0.flatMap(Int.init) }
            refresh_token = try? container.decodeIfPresent(String.self, forKey: .refresh_token)
            error = try? container.decodeIfPresent(String.self, forKey: .error)
        }

        private enum CodingKeys: String, CodingKey {
            case id_token, access_token, expires_in, refresh_token, error
        }
    }

    let http: ProviderHTTPClient

    /// - Parameters:
    ///   - redirectURI: exactly the `redirect_uri` of the authorization request.
    ///   - codeVerifier: the PKCE verifier, when the authorization request carried its challenge.
    func exchange(
        _ code: String, redirectURI: String, codeVerifier: String?, provider: IdentityProviderSettings, metadata: ProviderMetadata
    ) async throws(ProviderFailure) -> Tokens {
        guard let endpoint = metadata.tokenEndpoint else { throw .invalidResponse("discovery failed: no token_endpoint") }
        guard let secret = provider.clientSecret else { throw .invalidResponse("the provider has no client secret for the code flow") }
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
        if let codeVerifier { form.append(("code_verifier", codeVerifier)) }
        var headers: [(String, String)] = []
        switch Self.authentication(provider.clientAuthentication, supported: metadata.tokenEndpointAuthMethods) {
        case .basic:
            // RFC 6749 §2.3.1: both halves form-encoded before they are joined and base64-encoded.
            let pair = "\(provider.clientID.percentEncodedForQuery):\(secret.percentEncodedForQuery)"
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        case .post:
            form += [("client_id", provider.clientID), ("client_secret", secret)]
        }
        let answer = try await http.post(endpoint, form: form, headers: headers, "token exchange")
        guard let tokens = try? JSONDecoder().decode(Answer.self, from: answer.body) else {
            throw .invalidResponse("token exchange answered HTTP \(answer.status) without JSON")
        }
        if let error = tokens.error ?? (answer.status >= 400 ? "HTTP \(answer.status)" : nil) {
            throw .invalidResponse("token exchange refused: \(Self.shortCode(error))")
        }
        guard let idToken = tokens.id_token, !idToken.isEmpty else { throw .invalidResponse("token exchange returned no id_token") }
        return Tokens(idToken: idToken, accessToken: tokens.access_token, expiresIn: tokens.expires_in, refreshToken: tokens.refresh_token)
    }

    /// The configured method, unless the provider says it supports only the other one.
    static func authentication(
        _ configured: IdentityProviderSettings.ClientAuthentication, supported: [String]?
    ) -> IdentityProviderSettings.ClientAuthentication {
        guard let supported, !supported.contains(configured.rawValue) else { return configured }
        return IdentityProviderSettings.ClientAuthentication.allCases.first { supported.contains($0.rawValue) } ?? configured
    }

    /// An OAuth error code is a short word; anything else a provider puts there is cut down before it reaches a reply.
    private static func shortCode(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { $0.isASCIIAlphanumeric || "_- ".unicodeScalars.contains($0) }.prefix(60))
        return String(kept)
    }
}
