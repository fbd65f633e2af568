import Hummingbird

extension APIError {
    /// 404 from a route that exists (nothing under that id), in the error envelope.
    static let notFound = APIError(HTTPError(.notFound))
}
