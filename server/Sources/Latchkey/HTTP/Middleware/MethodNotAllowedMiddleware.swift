import HTTPTypes
import Hummingbird

/// Turns the router's 404 into 405 (with `Allow`) when the path exists under other methods.
///
/// Hummingbird's router cannot tell "no such path" from "wrong method", so this keeps a second router of the
/// same paths, each answering under `GET` with the methods the real one accepts there.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    private let catalogue: RouterResponder<Context>

    init(routes: [Router<Context>.RouteDescription]) {
        let catalogue = Router(context: Context.self)
        for (_, routes) in Dictionary(grouping: routes, by: \.path.description) {
            var methods = Set(routes.map(\.method.rawValue))
            // The router answers `HEAD` wherever it answers `GET` (`HeadRequestMiddleware`).
            if methods.contains("GET") { methods.insert("HEAD") }
            let allowed = methods.sorted().joined(separator: ", ")
            catalogue.get(routes[0].path) { _, _ -> HTTPResponse.Status in
                throw HTTPError(.methodNotAllowed, headers: [.allow: allowed])
            }
        }
        self.catalogue = catalogue.buildResponder()
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let probe = Request(
                head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: request.head.path), body: .init(buffer: ByteBuffer()))
            let answer = try await catalogue.respond(to: probe, context: context)
            // A handler of this very method may have thrown the 404 itself (nothing under that id): keep it.
            guard answer.status == .methodNotAllowed, let allowed = answer.headers[.allow],
                !allowed.split(separator: ", ").contains(Substring(request.method.rawValue))
            else { throw error }
            throw HTTPError(.methodNotAllowed, headers: [.allow: allowed])
        }
    }
}
