import Foundation
import LatchkeyWire

/// Proof of a second factor, to enroll it or to finish a sign-in (Firebase's `MultiFactorAssertion`).
public struct MultiFactorAssertion: Sendable {
    enum Purpose: Sendable {
        case enrollment(sessionInfo: String)
        case signIn(enrollmentID: String)
        /// A texted code, which enrolls a phone or passes its challenge (the verification id says which).
        case phone(verificationID: String)
    }

    let purpose: Purpose
    /// The authenticator's one-time password, or the texted code.
    let oneTimePassword: String
    public var factorID: String {
        guard case .phone = purpose else { return TOTPMultiFactorGenerator.factorID }
        return PhoneMultiFactorGenerator.factorID
    }
}

extension MultiFactorAssertion: CustomStringConvertible, CustomReflectable {
    /// Never shows the one-time password or code, nor does `dump`.
    public var description: String { "MultiFactorAssertion(\(factorID))" }
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
        guard case .enrollment(let user) = session.purpose else { throw AuthError(.invalidMultiFactorSession) }
        let answer: StartMfaEnrollmentResponse = try await user.backend.call(
            "v2/accounts/mfaEnrollment:start", StartMfaEnrollmentRequest(idToken: try await user.getIDToken()))
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

/// What a second factor's step belongs to (Firebase's `MultiFactorSession`): the signed-in user's enrollment
/// (`user.multiFactor.session()`), or a challenged sign-in (`resolver.session`).
public struct MultiFactorSession: Sendable {
    enum Purpose: Sendable {
        case enrollment(User)
        case signIn(pendingCredential: String)
    }

    let purpose: Purpose
}

/// Makes phone assertions (Firebase's `PhoneMultiFactorGenerator`).
public enum PhoneMultiFactorGenerator {
    public static let factorID = "phone"

    /// The texted code of `credential` as a second factor: enrolls the phone (`multiFactor.enroll(with:displayName:)`)
    /// or passes its challenge (`resolver.resolveSignIn(with:)`), as the verification id was started for.
    public static func assertion(with credential: PhoneAuthCredential) -> MultiFactorAssertion {
        guard case .code(let verificationID, let code) = credential.proof else {
            // A temporary proof is no texted code: the service refuses the empty one.
            return MultiFactorAssertion(purpose: .phone(verificationID: ""), oneTimePassword: "")
        }
        return MultiFactorAssertion(purpose: .phone(verificationID: verificationID), oneTimePassword: code)
    }
}

/// The user's second factors (Firebase's `MultiFactor`, `user.multiFactor`).
public struct MultiFactor: Sendable {
    let user: User

    public var enrolledFactors: [MultiFactorInfo] { user.record.current.enrolledFactors.map(MultiFactorInfo.make) }

    public func session() async throws -> MultiFactorSession {
        MultiFactorSession(purpose: .enrollment(user))
    }

    /// Enrolls the factor the assertion proves; the user's session continues with the tokens the service answers.
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        let request: FinalizeMfaEnrollmentRequest
        switch assertion.purpose {
        case .enrollment(let sessionInfo):
            request = FinalizeMfaEnrollmentRequest(
                idToken: try await user.getIDToken(), displayName: displayName,
                totpVerificationInfo: .init(sessionInfo: sessionInfo, verificationCode: assertion.oneTimePassword))
        case .phone(let verificationID):
            request = FinalizeMfaEnrollmentRequest(
                idToken: try await user.getIDToken(), displayName: displayName, totpVerificationInfo: nil,
                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: verificationID, code: assertion.oneTimePassword))
        case .signIn:
            throw AuthError(.invalidMultiFactorSession)
        }
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
    /// The factors the account has (a phone's as a `PhoneMultiFactorInfo`, its number masked); the assertion names one.
    public let hints: [MultiFactorInfo]
    /// The challenged sign-in, for `PhoneAuthProvider.verifyPhoneNumber(with:multiFactorSession:)`.
    public var session: MultiFactorSession { MultiFactorSession(purpose: .signIn(pendingCredential: pendingCredential)) }
    /// The first factor's provider.
    let provider: String?
    /// The user re-authenticating, whose session the second factor renews; `nil` for a sign-in.
    let reauthenticating: User?

    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        let request: FinalizeMfaSignInRequest
        switch assertion.purpose {
        case .signIn(let enrollmentID):
            request = FinalizeMfaSignInRequest(
                mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentID,
                totpVerificationInfo: .init(verificationCode: assertion.oneTimePassword))
        case .phone(let verificationID):
            request = FinalizeMfaSignInRequest(
                mfaPendingCredential: pendingCredential, mfaEnrollmentId: nil, totpVerificationInfo: nil,
                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: verificationID, code: assertion.oneTimePassword))
        case .enrollment:
            throw AuthError(.invalidMultiFactorSession)
        }
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
