import Hummingbird

/// `POST /v1/token`: Firebase's Secure Token API, exchanging a refresh token for a new ID token.
struct SecureTokenController {
    let refresher: SessionRefresher
    let projectID: String

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("token", use: token)
    }

    /// The Secure Token API's snake_case response.
    struct TokenResponse: ResponseEncodable {
        let idToken: String
        let refreshToken: String
        let expiresIn: String
        var tokenType = "Bearer"
        let userID: String
        let projectID: String

        enum CodingKeys: String, CodingKey {
            case idToken = "id_token"
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case expiresIn = "expires_in"
            case tokenType = "token_type"
            case userID = "user_id"
            case projectID = "project_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(idToken, forKey: .idToken)
            try container.encode(idToken, forKey: .accessToken)
            try container.encode(refreshToken, forKey: .refreshToken)
            try container.encode(expiresIn, forKey: .expiresIn)
            try container.encode(tokenType, forKey: .tokenType)
            try container.encode(userID, forKey: .userID)
            try container.encode(projectID, forKey: .projectID)
        }
    }

    @Sendable func token(_ request: Request, context: AppRequestContext) async throws -> TokenResponse {
        let body = try await RequestBody.jsonOrForm(request, context: context)
        switch body["grant_type"] ?? body["grantType"] {
        case nil, .null?, .string("")?: throw SignInError.missingGrantType
        case .string("refresh_token")?: break
        default: throw SignInError.invalidGrantType
        }
        guard let field = body["refresh_token"] ?? body["refreshToken"], field != .null else { throw SignInError.missingRefreshToken }
        guard let token = field.stringValue, token.utf8.count <= 256 else { throw SignInError.invalidRefreshToken }
        guard !token.isEmpty else { throw SignInError.missingRefreshToken }
        let session = try await refresher.refresh(token: token, logger: context.logger)
        return TokenResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), userID: session.account.id,
            projectID: projectID)
    }
}
