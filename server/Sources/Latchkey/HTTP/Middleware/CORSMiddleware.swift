import Foundation
import HTTPTypes
import Hummingbird

/// Lets web apps on allowed origins call the API from the browser: answers preflights itself and marks answers
/// to allowed origins. Credentials are never allowed (the API takes keys and tokens, not cookies).
///
/// Allowed: the configured `cors.allowedOrigins` (exact origins, or `*`), or by default every authorized domain
/// over https on its default port, plus `localhost` and `127.0.0.1` on any port for development.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let allowedOrigins: [String]?
    let authorizedDomains: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = allows(origin)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard let allowed else { return try Self.originRefused.response(from: request, context: context) }
            var headers = Self.headers(allowing: allowed)
            headers[.accessControlAllowMethods] = "GET, POST"
            headers[.accessControlAllowHeaders] = Self.requestHeaders
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        guard let allowed else { return try await next(request, context) }
        // Errors arrive here as answers (`ErrorMiddleware` sits inside), and get the headers too, or the browser would
        // hide the envelope from the app.
        var response = try await next(request, context)
        response.headers.append(contentsOf: Self.headers(allowing: allowed))
        return response
    }

    static let originRefused = APIError(status: .forbidden, message: "Origin not allowed.", reason: "forbidden", rpcStatus: "PERMISSION_DENIED")

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    func allows(_ origin: String) -> String? {
        if let allowedOrigins {
            if allowedOrigins.contains("*") { return "*" }
            return allowedOrigins.contains(origin.lowercased()) ? origin : nil
        }
        guard let url = URLComponents(string: origin), let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased(),
            url.path.isEmpty
        else { return nil }
        if host == "localhost" || host == "127.0.0.1" { return ["http", "https"].contains(scheme) ? origin : nil }
        return scheme == "https" && url.port == nil && authorizedDomains.contains(host) ? origin : nil
    }

    private static func headers(allowing origin: String) -> HTTPFields {
        var headers: HTTPFields = [.accessControlAllowOrigin: origin, .accessControlExposeHeaders: "Retry-After, X-Request-Id"]
        if origin != "*" { headers[.vary] = "Origin" }
        return headers
    }

    /// What Firebase's web SDK and plain clients send.
    private static let requestHeaders =
        "Content-Type, Authorization, X-Client-Version, X-Firebase-Client, X-Firebase-GMPID, X-Firebase-AppCheck, X-Firebase-Locale, X-Goog-Api-Key, X-Request-Id"
}
