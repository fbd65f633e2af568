import HTTPTypes
import Hummingbird

/// Accepts a request only with a configured API key, from `?key=` or the `x-goog-api-key` header,
/// answering exactly as Google does so Firebase clients show their usual error.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let apiKeys: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key = request.uri.queryParameters.get("key") ?? request.headers[.googAPIKey], !key.isEmpty else {
            throw APIError.missingAPIKey
        }
        guard apiKeys.contains(key) else { throw APIError.invalidAPIKey }
        var context = context
        context.apiKey = key
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let googAPIKey = Self("x-goog-api-key")!
    static let firebaseLocale = Self("x-firebase-locale")!
}
