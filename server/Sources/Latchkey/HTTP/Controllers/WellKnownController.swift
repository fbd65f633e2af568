import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// What backends fetch to verify ID tokens, plus the liveness probe.
struct WellKnownController {
    let tokens: JWTTokenIssuer
    let store: any Store
    /// Which keys are published depends on the time: a retired key drops out once its tokens have expired.
    let clock: any WallClock
    let publicURL: String
    /// The API's OpenAPI document, read once at start-up; `nil` when the file is absent.
    let openAPIDocument: ByteBuffer?

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(".well-known/jwks.json", use: jwks)
            .get(".well-known/openid-configuration", use: openIDConfiguration)
            .get("healthz") { _, _ in HTTPResponse.Status.ok }
            .get("readyz", use: ready)
            .get("openapi.json", use: openAPI)
    }

    @Sendable func jwks(_ request: Request, context: AppRequestContext) async throws -> Response {
        var response = try context.responseEncoder.encode(tokens.publishedKeys(at: clock.now), from: request, context: context)
        response.headers[.cacheControl] = "public, max-age=3600"
        return response
    }

    /// 200 when a write transaction on the database succeeds (templates and the mail transport are checked at
    /// start-up, which would not have finished without them); 503 otherwise, so a load balancer stops sending traffic.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        do {
            // A database that does not answer (PostgreSQL away) is as unready as one that refuses.
            try await withDeadline(seconds: 3) { [store] in try await store.confirmWritable() }
            return .ok
        } catch {
            context.logger.error("Readiness check failed: database not writable", metadata: ["error": "\(error)"])
            return .serviceUnavailable
        }
    }

    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let openAPIDocument else { throw APIError.notFound }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: openAPIDocument))
    }

    @Sendable func openIDConfiguration(_ request: Request, context: AppRequestContext) async throws -> OpenIDConfiguration {
        // The algorithms of the published keys: old tokens stay verifiable after a rotation to another algorithm.
        OpenIDConfiguration(
            issuer: tokens.issuer, jwksURI: publicURL + "/.well-known/jwks.json",
            idTokenSigningAlgValuesSupported: Set(tokens.publishedKeys(at: clock.now).keys.map(\.alg)).sorted())
    }
}
