import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// Accepts a request from an app with a configured API key (`?key=` or `x-goog-api-key`), or from an admin
/// with a bearer token, answering exactly as Google does so Firebase clients show their usual errors.
///
/// Admin tools (the Firebase Admin SDKs among them) send `Authorization: Bearer …` and no API key.
/// App requests count against their key's per-minute quota; admin requests do not. Who the caller is was decided
/// once, by `AdminCredentialMiddleware`; here a refused credential is answered.
struct ClientAuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let apiKeys: Set<String>
    let quota: APIKeyQuota

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let key = request.uri.queryParameters.get("key") ?? request.headers[.googAPIKey]
        switch context.credential {
        case .refused:
            throw APIError.unauthenticated
        case .admin:
            break
        case .none:
            guard let key, !key.isEmpty else { throw APIError.missingAPIKey }
            guard apiKeys.contains(key) else { throw APIError.invalidAPIKey }
            try quota.admit(key)
        }
        // Sign-in links carry an API key; an admin request without one gets the first configured key.
        context.apiKey = key.flatMap { apiKeys.contains($0) ? $0 : nil } ?? apiKeys.sorted().first
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let googAPIKey = Self("x-goog-api-key")!
    static let firebaseLocale = Self("x-firebase-locale")!
}
