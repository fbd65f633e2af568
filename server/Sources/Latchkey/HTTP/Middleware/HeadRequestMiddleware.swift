import Hummingbird

/// Answers `HEAD` as `GET` without the body, errors included.
///
/// The router sends `HEAD` to the `GET` handler of the path (`RouterOptions.autoGenerateHeadEndpoints`) and drops the
/// body of what it answers, but an error answered by `ErrorMiddleware` still has its envelope. This drops that too, and
/// keeps the status and the headers (`Content-Length` included), so a `HEAD` says what a `GET` would get.
struct HeadRequestMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        return try await next(request, context).createHeadResponse()
    }
}
