import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// v2 `accounts:revokeToken`: a signed-in user's Sign in with Apple tokens revoked at Apple.
struct TokenRevocationController {
    let revocation: AppleTokenRevocation

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:revokeToken", use: revokeToken)
    }

    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> RevokeTokenResponse {
        let body = try await RequestBody.decode(RevokeTokenRequest.self, from: request, context: context)
        return try await revocation.revoke(body, by: context.caller(of: request), logger: context.logger)
    }
}
