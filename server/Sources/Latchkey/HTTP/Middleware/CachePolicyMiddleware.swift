import HTTPTypes
import Hummingbird

/// Keeps every answer out of caches unless its handler said it may be cached.
///
/// API answers carry ID and refresh tokens, codes (an admin's `returnOobLink`) and account data, so neither a shared
/// cache nor the browser's may keep them. Marking every answer by default, rather than the API's routes one by one,
/// also covers the error envelopes produced before routing (404, 405, 413) and any route added later. The public
/// documents that verifiers and app stores fetch often set their own policy (`public, max-age=3600` on the JWKS and
/// the app-link files), which is kept; the few public answers without one (OpenID discovery, `/openapi.json`, the
/// probes) lose little by not being cached, and a probe must never be answered from a cache anyway.
struct CachePolicyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        // HTTP/1.0 caches know only `Pragma`.
        if response.headers[.cacheControl] == "no-store", response.headers[Self.pragma] == nil {
            response.headers[Self.pragma] = "no-cache"
        }
        return response
    }

    static let pragma = HTTPField.Name("Pragma")!
}
