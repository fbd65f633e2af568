import Hummingbird
import LatchkeyDomain
import Logging

/// Turns every error into its answer in the envelope, in one place: ours as they are (an account clash as the refusal it
/// stands for), Hummingbird's (404, 405, 413)
/// rewrapped, and anything else a bare 500 logged at `error`, since Hummingbird itself logs those only at `debug`.
///
/// It answers rather than rethrows, so the middleware outside it (CORS, cache policy, `HEAD`, request logs) sees
/// every outcome as a response and treats errors as it treats answers.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let metrics: SignInMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try answer(for: error, request: request, context: context).response(from: request, context: context)
        }
    }

    private func answer(for error: any Error, request: Request, context: Context) -> any HTTPResponseError {
        switch error {
        case let error as APIError: return error
        case let error as SignInError: return error
        // A clash that escaped the domain's own retry (a racing request, an address awaiting its undo).
        case let error as AccountConflict: return error.refusal
        case let error as ProviderConfigError: return error
        case let error as ImportBatchRefusal: return error
        case let error as RateLimited:
            metrics.countRejection(by: error.rule)
            return error
        case let error as HTTPError: return APIError(error)
        case let error as PasswordHashingBusy:
            // A full line or a slow one is for the operator (more cores, a smaller passwordHashCost); one address's
            // attempts beyond its share are that client's affair.
            if error.reason == .addressBusy {
                context.logger.debug("Password checks of one address refused", metadata: ["path": "\(request.uri.path)"])
            } else {
                context.logger.warning("Password hashing saturated", metadata: ["reason": "\(error.reason.rawValue)", "path": "\(request.uri.path)"])
            }
            return error
        // Logged by the adapter that met it (APNs, the captcha provider), with what the operator needs.
        case let error as AppVerificationUnavailable: return error
        case let error as StoreUnavailable:
            context.logger.warning("Store unavailable", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return APIError.unavailable
        default:
            context.logger.error("Request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return APIError.internalError
        }
    }
}
