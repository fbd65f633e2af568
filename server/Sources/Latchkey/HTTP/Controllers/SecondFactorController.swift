import Foundation
import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// Identity Toolkit v2's second-factor methods, for TOTP authenticator apps (spec §8) and phones: `accounts/mfaEnrollment:start`,
/// `:finalize` and `:withdraw` for the signed-in user (`SecondFactorEnrollments`), and `accounts/mfaSignIn:start` and
/// `:finalize` to finish a sign-in its first factor stopped at the challenge (`SecondFactorSignIn`).
struct SecondFactorController {
    let enrollments: SecondFactorEnrollments
    let signIn: SecondFactorSignIn

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts/mfaEnrollment:start", use: startEnrollment)
            .post("accounts/mfaEnrollment:finalize", use: finalizeEnrollment)
            .post("accounts/mfaEnrollment:withdraw", use: withdraw)
            .post("accounts/mfaSignIn:start", use: startSignIn)
            .post("accounts/mfaSignIn:finalize", use: finalizeSignIn)
    }

    @Sendable func startEnrollment(_ request: Request, context: AppRequestContext) async throws -> StartMfaEnrollmentResponse {
        let body = try await RequestBody.decode(StartMfaEnrollmentRequest.self, from: request, context: context)
        switch try await enrollments.start(body, language: context.language(of: request), by: context.caller(of: request)) {
        case .authenticator(let sharedSecretKey, let sessionInfo, let finalizeBy):
            return StartMfaEnrollmentResponse(
                totpSessionInfo: .init(
                    sharedSecretKey: sharedSecretKey, verificationCodeLength: TOTP.digits, hashingAlgorithm: "SHA1", periodSec: Int(TOTP.period),
                    sessionInfo: sessionInfo, finalizeEnrollmentTime: MfaEnrollment.timestamp(finalizeBy)))
        case .phone(let sessionInfo):
            return StartMfaEnrollmentResponse(phoneSessionInfo: PhoneSessionInfo(sessionInfo: sessionInfo))
        }
    }

    @Sendable func finalizeEnrollment(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        let body = try await RequestBody.decode(FinalizeMfaEnrollmentRequest.self, from: request, context: context)
        let session = try await enrollments.finalize(
            body, language: context.language(of: request), requester: context.requester(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }

    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        let body = try await RequestBody.decode(WithdrawMfaRequest.self, from: request, context: context)
        let session = try await enrollments.withdraw(
            body, language: context.language(of: request), requester: context.requester(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }

    @Sendable func startSignIn(_ request: Request, context: AppRequestContext) async throws -> StartMfaSignInResponse {
        let body = try await RequestBody.decode(StartMfaSignInRequest.self, from: request, context: context)
        let sessionInfo = try await signIn.start(body, language: context.language(of: request), by: context.caller(of: request))
        return StartMfaSignInResponse(phoneResponseInfo: PhoneSessionInfo(sessionInfo: sessionInfo))
    }

    @Sendable func finalizeSignIn(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        let body = try await RequestBody.decode(FinalizeMfaSignInRequest.self, from: request, context: context)
        let session = try await signIn.finalize(body, language: context.language(of: request), by: context.caller(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }
}
