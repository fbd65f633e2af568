import Foundation
import LatchkeyDomain

/// Checks an access token of classic Facebook Login with Facebook's Graph API, the way Facebook asks servers to: the
/// token must be valid and issued to this app (`debug_token`, asked with the app's own token), and the profile is
/// read with the token itself (`me`). Facebook Limited Login's ID tokens go through `IDTokenVerifier` like any other.
struct FacebookGraph: Sendable {
    private struct Inspection: Decodable {
        struct Data: Decodable {
            let app_id: String?
            let is_valid: Bool?
            let user_id: String?
        }
        let data: Data?
    }

    let http: ProviderHTTPClient

    func verify(accessToken: String, from provider: IdentityProviderSettings) async throws(ProviderFailure) -> VerifiedIdentity {
        guard let graph = provider.graphURL, let appSecret = provider.clientSecret else {
            throw .invalidResponse("facebook.com needs its app secret (clientSecret) to check access tokens")
        }
        guard accessToken.utf8.count <= 4096 else { throw .invalidResponse("the access token is too long") }
        let inspected = try await http.get(url(graph, "debug_token", [("input_token", accessToken), ("access_token", "\(provider.clientID)|\(appSecret)")]), "Graph API")
        guard let data = (try? JSONDecoder().decode(Inspection.self, from: inspected.body))?.data, data.is_valid == true,
            let userID = data.user_id, !userID.isEmpty
        else { throw .invalidResponse("the access token is not valid") }
        guard data.app_id == provider.clientID else { throw .invalidResponse("the access token is for another app") }
        let profile = try await http.get(
            url(graph, "me", [("fields", "id,name,email,first_name,last_name,picture"), ("access_token", accessToken)]), "Graph API")
        guard let fields = (try? JSONSerialization.jsonObject(with: profile.body)) as? [String: Any], fields["id"] as? String == userID else {
            throw .invalidResponse("the Graph API's profile is not the token's user")
        }
        func text(_ name: String) -> String? { (fields[name] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        let picture = ((fields["picture"] as? [String: Any])?["data"] as? [String: Any])?["url"] as? String
        let email = text("email").flatMap(EmailAddress.init)
        // Facebook says nothing of whether an address is proven: only `emailTrust: always` vouches for it.
        return VerifiedIdentity(
            providerID: provider.providerID, subject: userID, email: email, isEmailVerified: email != nil && provider.emailTrust == .always,
            displayName: text("name"), firstName: text("first_name"), lastName: text("last_name"), photoURL: picture, screenName: nil,
            rawUserInfo: String(decoding: profile.body, as: UTF8.self), idToken: nil)
    }

    private func url(_ graph: URL, _ path: String, _ query: [(String, String)]) -> URL {
        var base = graph.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: "\(base)/\(path)?\(QueryString.encode(query))") ?? graph
    }
}
