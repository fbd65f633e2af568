import Foundation
import LatchkeyWire

/// A second factor enrolled on the account (Firebase's `MultiFactorInfo`; Latchkey's factors are TOTP).
public struct MultiFactorInfo: Codable, Sendable, Equatable {
    public let uid: String
    public let displayName: String?
    public let enrollmentDate: Date?
    public let factorID: String

    init(_ enrollment: MfaEnrollment) {
        uid = enrollment.mfaEnrollmentId
        displayName = enrollment.displayName
        enrollmentDate = Self.date(enrollment.enrolledAt)
        factorID = TOTPMultiFactorGenerator.factorID
    }

    /// RFC 3339, with milliseconds as the service writes it, or without.
    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// Proof of a second factor, to enroll it or to finish a sign-in (Firebase's `MultiFactorAssertion`).
public struct MultiFactorAssertion: Sendable {
    enum Purpose: Sendable {
        case enrollment(sessionInfo: String)
        case signIn(enrollmentID: String)
    }

    let purpose: Purpose
    let oneTimePassword: String
    public var factorID: String { TOTPMultiFactorGenerator.factorID }
}

extension MultiFactorAssertion: CustomStringConvertible, CustomReflectable {
    /// Never shows the one-time password, nor does `dump`.
    public var description: String { "MultiFactorAssertion(totp)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A TOTP secret the service made for an enrollment (Firebase's `TOTPSecret`).
public struct TOTPSecret: Sendable, CustomStringConvertible, CustomReflectable {
    let secret: StartMfaEnrollmentResponse.TotpSessionInfo

    /// The base32 secret, to type into an authenticator app.
    public func sharedSecretKey() -> String { secret.sharedSecretKey }

    /// The `otpauth://` URL an authenticator app reads from a QR code.
    public func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        var url = URLComponents()
        url.scheme = "otpauth"
        url.host = "totp"
        url.path = "/\(issuer):\(accountName)"
        url.queryItems = [
            URLQueryItem(name: "secret", value: secret.sharedSecretKey), URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: secret.hashingAlgorithm), URLQueryItem(name: "digits", value: String(secret.verificationCodeLength)),
            URLQueryItem(name: "period", value: String(secret.periodSec)),
        ]
        return url.string ?? ""
    }

    /// Never shows the secret, nor does `dump`.
    public var description: String { "TOTPSecret" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// Makes TOTP secrets and assertions (Firebase's `TOTPMultiFactorGenerator`).
public enum TOTPMultiFactorGenerator {
    public static let factorID = "totp"

    /// Asks the service for a new secret for the user of `session`.
    public static func generateSecret(with session: MultiFactorSession) async throws -> TOTPSecret {
        let answer: StartMfaEnrollmentResponse = try await session.user.backend.call(
            "v2/accounts/mfaEnrollment:start", StartMfaEnrollmentRequest(idToken: try await session.user.getIDToken()))
        guard let secret = answer.totpSessionInfo else { throw AuthError(.internalError, message: "the service answered without a TOTP secret") }
        return TOTPSecret(secret: secret)
    }

    public static func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> MultiFactorAssertion {
        MultiFactorAssertion(purpose: .enrollment(sessionInfo: secret.secret.sessionInfo), oneTimePassword: oneTimePassword)
    }

    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> MultiFactorAssertion {
        MultiFactorAssertion(purpose: .signIn(enrollmentID: enrollmentID), oneTimePassword: oneTimePassword)
    }
}

/// The signed-in user's side of an enrollment (Firebase's `MultiFactorSession`).
public struct MultiFactorSession: Sendable {
    let user: User
}

/// The user's second factors (Firebase's `MultiFactor`, `user.multiFactor`).
public struct MultiFactor: Sendable {
    let user: User

    public var enrolledFactors: [MultiFactorInfo] { user.record.current.enrolledFactors }

    public func session() async throws -> MultiFactorSession {
        MultiFactorSession(user: user)
    }

    /// Enrolls the factor the assertion proves; the user's session continues with the tokens the service answers.
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        guard case .enrollment(let sessionInfo) = assertion.purpose else { throw AuthError(.invalidMultiFactorSession) }
        let request = FinalizeMfaEnrollmentRequest(
            idToken: try await user.getIDToken(), displayName: displayName,
            totpVerificationInfo: .init(sessionInfo: sessionInfo, verificationCode: assertion.oneTimePassword))
        let answer: FinalizeMfaResponse = try await user.backend.call("v2/accounts/mfaEnrollment:finalize", request)
        await user.adopt(try SignInAnswer(answer).tokens(state: try user.signedInOwner(), provider: nil))
        try await user.reload()
    }

    /// Removes the factor `factorUID` (after a recent sign-in); the session continues with the tokens the service answers.
    public func unenroll(withFactorUID factorUID: String) async throws {
        let answer: FinalizeMfaResponse = try await user.backend.call(
            "v2/accounts/mfaEnrollment:withdraw", WithdrawMfaRequest(idToken: try await user.getIDToken(), mfaEnrollmentId: factorUID))
        await user.adopt(try SignInAnswer(answer).tokens(state: try user.signedInOwner(), provider: nil))
        try await user.reload()
    }
}

extension User {
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}

/// Finishes a sign-in that asked for a second factor (Firebase's `MultiFactorResolver`, from the
/// `secondFactorRequired` error).
public struct MultiFactorResolver: Sendable {
    let state: AuthState
    let pendingCredential: String
    /// The factors the account has; the assertion names one.
    public let hints: [MultiFactorInfo]
    /// The first factor's provider.
    let provider: String?
    /// The user re-authenticating, whose session the second factor renews; `nil` for a sign-in.
    let reauthenticating: User?

    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        guard case .signIn(let enrollmentID) = assertion.purpose else { throw AuthError(.invalidMultiFactorSession) }
        let request = FinalizeMfaSignInRequest(
            mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentID,
            totpVerificationInfo: .init(verificationCode: assertion.oneTimePassword))
        let answer: FinalizeMfaResponse = try await state.backend.call("v2/accounts/mfaSignIn:finalize", request)
        guard let user = reauthenticating else { return try await state.finish(SignInAnswer(answer), provider: provider) }
        try await user.resume(with: try SignInAnswer(answer).tokens(state: state, provider: provider))
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: provider, isNewUser: false))
    }
}

extension MultiFactorResolver: CustomStringConvertible, CustomReflectable {
    /// Never shows the pending credential, nor does `dump`.
    public var description: String { "MultiFactorResolver(\(hints.count) factors)" }
    public var customMirror: Mirror { Mirror(self, children: ["hints": hints]) }
}
