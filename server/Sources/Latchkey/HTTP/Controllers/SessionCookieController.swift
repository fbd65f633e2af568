import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// Firebase's `projects/{projectId}:createSessionCookie` (admin; the Admin SDKs' `create_session_cookie`): a session
/// cookie for a signed-in user's ID token. Firebase has no form of it outside a project.
struct SessionCookieController {
    let sessionCookies: SessionCookies

    /// Admin routes: only a request with an admin token gets an `AdminRequestContext`.
    var endpoints: RouteCollection<AdminRequestContext> {
        RouteCollection(context: AdminRequestContext.self)
            .post("projects/{projectId}:createSessionCookie", use: create)
    }

    @Sendable func create(_ request: Request, context: AdminRequestContext) async throws -> CreateSessionCookieResponse {
        let body = try await RequestBody.decode(CreateSessionCookieRequest.self, from: request, context: context)
        return CreateSessionCookieResponse(sessionCookie: try await sessionCookies.create(body))
    }
}
