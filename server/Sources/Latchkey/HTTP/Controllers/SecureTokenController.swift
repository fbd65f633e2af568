import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// `POST /v1/token`: Firebase's Secure Token API, exchanging a refresh token for a new ID token.
struct SecureTokenController {
    let refresher: SessionRefresher
    let projectID: String

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("token", use: token)
    }

    /// Decoding has already refused every grant type but `refresh_token`.
    @Sendable func token(_ request: Request, context: AppRequestContext) async throws -> GrantTokenResponse {
        let body = try await RequestBody.decodeJSONOrForm(GrantTokenRequest.self, from: request, context: context)
        guard let token = body.refreshToken else { throw SignInError.missingRefreshToken }
        guard token.utf8.count <= 256 else { throw SignInError.invalidRefreshToken }
        guard !token.isEmpty else { throw SignInError.missingRefreshToken }
        let session = try await refresher.refresh(token: token, logger: context.logger)
        return GrantTokenResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), userId: session.account.id,
            projectId: projectID)
    }
}
