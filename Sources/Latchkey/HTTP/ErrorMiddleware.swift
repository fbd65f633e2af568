import Hummingbird
import Logging

/// Puts every error in the envelope: ours pass through, Hummingbird's (404, 405, 413) are rewrapped, and
/// anything else becomes a bare 500 logged at `error`, since Hummingbird itself logs those only at `debug`.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as SignInError {
            throw error
        } catch let error as RateLimited {
            metrics.countRejection(by: error.rule)
            throw error
        } catch let error as HTTPError {
            throw APIError(error)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            throw APIError.internalError
        }
    }
}
