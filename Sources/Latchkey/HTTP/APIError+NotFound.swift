import Hummingbird

extension APIError {
    /// 404 from a route that exists: thrown as an `APIError` rather than an `HTTPError`, which
    /// `MethodNotAllowedMiddleware` would take for an unknown path and answer 405 on a path that has a GET route.
    static let notFound = APIError(HTTPError(.notFound))
}
