import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber` (v3 `sendVerificationCode` and
/// `verifyPhoneNumber`): signing in, or linking a number, with a texted code.
struct PhoneSignInController {
    let signIn: PhoneSignIn

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:sendVerificationCode", use: sendVerificationCode)
            .post("accounts:signInWithPhoneNumber", use: signInWithPhoneNumber)
    }

    @Sendable func sendVerificationCode(_ request: Request, context: AppRequestContext) async throws -> SendVerificationCodeResponse {
        let body = try await RequestBody.decode(SendVerificationCodeRequest.self, from: request, context: context)
        let sessionInfo = try await signIn.sendCode(body, language: context.language(of: request), by: context.caller(of: request), logger: context.logger)
        return SendVerificationCodeResponse(sessionInfo: sessionInfo)
    }

    @Sendable func signInWithPhoneNumber(_ request: Request, context: AppRequestContext) async throws -> SignInWithPhoneNumberResponse {
        let body = try await RequestBody.decode(SignInWithPhoneNumberRequest.self, from: request, context: context)
        switch try await signIn.signIn(body, by: context.caller(of: request), logger: context.logger) {
        case .signedIn(let session, let number):
            return SignInWithPhoneNumberResponse(
                idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), localId: session.account.id,
                isNewUser: session.isNewUser, phoneNumber: number.value)
        case .numberTaken(let number, let temporaryProof):
            return SignInWithPhoneNumberResponse(
                phoneNumber: number.value, temporaryProof: temporaryProof, temporaryProofExpiresIn: String(Int(PhoneCodes.proofLifetime)))
        }
    }
}
