import Foundation
import Hummingbird
import LatchkeyWire

/// Identity Toolkit v2's second-factor methods, for TOTP authenticator apps (spec §8): `accounts/mfaEnrollment:start`,
/// `:finalize` and `:withdraw` for the signed-in user, and `accounts/mfaSignIn:finalize` to finish a sign-in its first
/// factor stopped at the challenge. `accounts/mfaSignIn:start` exists for SMS only and answers as Firebase does for TOTP.
///
/// Enrolling answers second factors being off first, then the ID token, then a request missing what it needs, then the
/// account's eligibility (Latchkey's order, spec §8.3 [L]).
struct SecondFactorController {
    let enrollments: SecondFactorEnrollments
    let signIn: SecondFactorSignIn
    let lookup: AccountLookup

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts/mfaEnrollment:start", use: startEnrollment)
            .post("accounts/mfaEnrollment:finalize", use: finalizeEnrollment)
            .post("accounts/mfaEnrollment:withdraw", use: withdraw)
            .post("accounts/mfaSignIn:start", use: startSignIn)
            .post("accounts/mfaSignIn:finalize", use: finalizeSignIn)
    }

    @Sendable func startEnrollment(_ request: Request, context: AppRequestContext) async throws -> StartMfaEnrollmentResponse {
        try enrollments.requireEnabled()
        let body = try await RequestBody.decode(StartMfaEnrollmentRequest.self, from: request, context: context)
        let claims = try await authenticate(body.idToken)
        guard body.totpEnrollmentInfo != nil else {
            throw body.phoneEnrollmentInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("((Missing totpEnrollmentInfo.))")
        }
        let started = try await enrollments.start(claims)
        return StartMfaEnrollmentResponse(
            totpSessionInfo: .init(
                sharedSecretKey: started.sharedSecretKey, verificationCodeLength: TOTP.digits, hashingAlgorithm: "SHA1", periodSec: Int(TOTP.period),
                sessionInfo: started.sessionInfo, finalizeEnrollmentTime: MfaEnrollment.timestamp(started.finalizeBy)))
    }

    @Sendable func finalizeEnrollment(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        try enrollments.requireEnabled()
        let body = try await RequestBody.decode(FinalizeMfaEnrollmentRequest.self, from: request, context: context)
        let claims = try await authenticate(body.idToken)
        guard let verification = body.totpVerificationInfo else {
            throw body.phoneVerificationInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("MFA provider not supported!")
        }
        guard let sessionInfo = verification.sessionInfo, !sessionInfo.isEmpty else { throw SignInError.missingSessionInfo }
        let code = try Self.code(verification.verificationCode)
        let displayName = try AccountUpdatesController.profileText(body.displayName.flatMap { $0.isEmpty ? nil : $0 })
        let session = try await enrollments.finalize(
            claims, sessionInfo: sessionInfo, code: code, displayName: displayName, language: context.language(of: request),
            requester: context.requester(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }

    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        let body = try await RequestBody.decode(WithdrawMfaRequest.self, from: request, context: context)
        let claims = try await authenticate(body.idToken)
        guard let factorID = body.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.mfaEnrollmentNotFound }
        let session = try await enrollments.withdraw(
            claims, factorID: factorID, language: context.language(of: request), requester: context.requester(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }

    /// Only SMS factors start a sign-in; a TOTP factor's code is simply sent to `mfaSignIn:finalize`. Every answer is
    /// an error, the one Firebase gives.
    @Sendable func startSignIn(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let body = try await RequestBody.decode(StartMfaSignInRequest.self, from: request, context: context)
        guard let credential = body.mfaPendingCredential, !credential.isEmpty else { throw SignInError.missingMFAPendingCredential }
        guard let factorID = body.mfaEnrollmentId, !factorID.isEmpty else { throw SignInError.missingMFAEnrollmentID }
        guard try await signIn.factors(pendingCredential: credential).contains(where: { $0.id == factorID }) else {
            throw SignInError.mfaEnrollmentNotFound
        }
        throw SignInError.unsupportedSecondFactor("MFA provider not supported!")
    }

    @Sendable func finalizeSignIn(_ request: Request, context: AppRequestContext) async throws -> FinalizeMfaResponse {
        let body = try await RequestBody.decode(FinalizeMfaSignInRequest.self, from: request, context: context)
        guard let credential = body.mfaPendingCredential, !credential.isEmpty else { throw SignInError.missingCredential }
        guard let verification = body.totpVerificationInfo else {
            throw body.phoneVerificationInfo != nil ? SignInError.smsNotOffered : .unsupportedSecondFactor("MFA provider not supported!")
        }
        let session = try await signIn.finalize(
            pendingCredential: credential, factorID: body.mfaEnrollmentId, code: verification.verificationCode, language: context.language(of: request),
            by: context.caller(of: request), logger: context.logger)
        return FinalizeMfaResponse(idToken: session.idToken, refreshToken: session.refreshToken)
    }

    /// The signed-in user's verified claims.
    private func authenticate(_ idToken: String?) async throws -> IDTokenClaims {
        guard let idToken, !idToken.isEmpty else { throw SignInError.missingIDToken }
        return try await lookup.authenticate(idToken: idToken).claims
    }

    /// A verification code as sent; its form is checked with its value, so a malformed code is simply a wrong one.
    private static func code(_ code: String?) throws(SignInError) -> String {
        guard let code, !code.isEmpty else { throw .missingCode }
        return code
    }
}
