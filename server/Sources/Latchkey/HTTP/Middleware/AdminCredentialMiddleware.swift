import Hummingbird

/// Decides once, for every request, who the caller is (`AdminCredential`), before its body is read: an admin may
/// send a larger body, and the API's authentication and admin routes read the answer from the context.
///
/// Nothing is refused here: a request with a refused credential may still reach a page that does not look at it
/// (an emailed link's landing page); the API groups refuse it (`ClientAuthenticationMiddleware`).
struct AdminCredentialMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let admin: AdminAuthorization

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.credential = admin.credential(of: request)
        return try await next(request, context)
    }
}
