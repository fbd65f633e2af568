import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// `accounts:signInWithCustomToken` (v3 `verifyCustomToken`): a session for the user the app's backend vouches for.
struct CustomTokenController {
    let signIn: CustomTokenSignIn

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:signInWithCustomToken", use: signInWithCustomToken)
    }

    @Sendable func signInWithCustomToken(_ request: Request, context: AppRequestContext) async throws -> SignInWithCustomTokenResponse {
        let body = try await RequestBody.decode(SignInWithCustomTokenRequest.self, from: request, context: context)
        let result = try await signIn.signIn(body, by: context.caller(of: request), logger: context.logger)
        var response = SignInWithCustomTokenResponse(isNewUser: result.isNewUser)
        response.answer(result)
        return response
    }
}
