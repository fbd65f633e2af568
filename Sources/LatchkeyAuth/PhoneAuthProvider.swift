import Foundation
import LatchkeyWire

/// Texts codes and makes credentials of them (Firebase's `PhoneAuthProvider`): the number's own sign-in, the
/// enrollment of a phone second factor, and the challenge of one.
public struct PhoneAuthProvider: Sendable {
    public static let id = "phone"
    let auth: Auth

    /// The provider for `auth` (Firebase's `PhoneAuthProvider.provider(auth:)`).
    public static func provider(auth: Auth) -> PhoneAuthProvider {
        PhoneAuthProvider(auth: auth)
    }

    /// Texts a code to `phoneNumber` (E.164, or a form the service normalizes) and answers the verification id to make
    /// the credential with. With `multiFactorSession` (`user.multiFactor.session()`), the code enrolls the number as a
    /// second factor instead. `appVerification` is the proof a service with app verification on asks for; a service
    /// with it off needs none.
    public func verifyPhoneNumber(
        _ phoneNumber: String, appVerification: AppVerificationProof? = nil, multiFactorSession: MultiFactorSession? = nil
    ) async throws -> String {
        let request = AppVerificationProof.request(appVerification, phoneNumber: phoneNumber)
        guard let multiFactorSession else {
            let answer: SendVerificationCodeResponse = try await auth.backend.call("v1/accounts:sendVerificationCode", request)
            return answer.sessionInfo
        }
        guard case .enrollment(let user) = multiFactorSession.purpose else { throw AuthError(.invalidMultiFactorSession) }
        let answer: StartMfaEnrollmentResponse = try await user.backend.call(
            "v2/accounts/mfaEnrollment:start",
            StartMfaEnrollmentRequest(idToken: try await user.getIDToken(), totpEnrollmentInfo: nil, phoneEnrollmentInfo: request))
        guard let sessionInfo = answer.phoneSessionInfo?.sessionInfo else {
            throw AuthError(.internalError, message: "the service answered without a phone session")
        }
        return sessionInfo
    }

    /// Texts a code to the phone factor `hint` of a sign-in's `multiFactorSession` (`resolver.session`), and answers
    /// the verification id to make the credential with.
    public func verifyPhoneNumber(
        with hint: PhoneMultiFactorInfo, appVerification: AppVerificationProof? = nil, multiFactorSession: MultiFactorSession
    ) async throws -> String {
        guard case .signIn(let pendingCredential) = multiFactorSession.purpose else { throw AuthError(.invalidMultiFactorSession) }
        let answer: StartMfaSignInResponse = try await auth.backend.call(
            "v2/accounts/mfaSignIn:start",
            StartMfaSignInRequest(
                mfaPendingCredential: pendingCredential, mfaEnrollmentId: hint.uid,
                phoneSignInInfo: AppVerificationProof.request(appVerification, phoneNumber: nil)))
        return answer.phoneResponseInfo.sessionInfo
    }

    /// The credential of a texted code: signs in, links, or (through `PhoneMultiFactorGenerator`) proves a factor.
    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(proof: .code(verificationID: verificationID, code: verificationCode))
    }
}

/// The proof that the request to text a code comes from the real app, for a service with app verification on (see
/// `docs/app-verification.md`); Firebase's SDK gets it through APNs or a reCAPTCHA page, which this library leaves
/// to the app.
public enum AppVerificationProof: Sendable, Equatable {
    /// A token from the captcha the service checks (reCAPTCHA, hCaptcha or Turnstile), sent as `recaptchaToken`.
    case captcha(token: String)
    /// The `receipt` of `accounts:verifyClient` and the `secret` the silent push carried.
    case iosReceipt(String, secret: String)

    /// The request to text `phoneNumber` (none for a factor, which names it), with `proof` or none: what a service
    /// with app verification off (or in development mode) admits.
    static func request(_ proof: AppVerificationProof?, phoneNumber: String?) -> SendVerificationCodeRequest {
        switch proof {
        case nil: SendVerificationCodeRequest(phoneNumber: phoneNumber)
        case .captcha(let token): SendVerificationCodeRequest(phoneNumber: phoneNumber, recaptchaToken: token)
        case .iosReceipt(let receipt, let secret): SendVerificationCodeRequest(phoneNumber: phoneNumber, iosReceipt: receipt, iosSecret: secret)
        }
    }
}

extension AppVerificationProof: CustomStringConvertible, CustomReflectable {
    /// Never shows the token or the secret, nor does `dump`.
    public var description: String {
        switch self {
        case .captcha: "AppVerificationProof.captcha"
        case .iosReceipt: "AppVerificationProof.iosReceipt"
        }
    }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A number's proof (Firebase's `PhoneAuthCredential`): a texted code with its verification id, or the temporary
/// proof the service answered when linking a number another account has (`credentialAlreadyInUse`).
public struct PhoneAuthCredential: Sendable, CustomStringConvertible, CustomReflectable {
    enum Proof: Sendable {
        case code(verificationID: String, code: String)
        case temporaryProof(String, phoneNumber: String)
    }

    let proof: Proof
    public var provider: String { PhoneAuthProvider.id }

    /// The number a temporary proof is for; `nil` for a texted code, whose number the service knows.
    public var phoneNumber: String? {
        guard case .temporaryProof(_, let phoneNumber) = proof else { return nil }
        return phoneNumber
    }

    /// Never shows the code or the proof, nor does `dump`.
    public var description: String { "PhoneAuthCredential" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The `accounts:signInWithPhoneNumber` request, for a signed-in user's `idToken` when linking.
    func request(linkingTo idToken: String?) -> SignInWithPhoneNumberRequest {
        switch proof {
        case .code(let verificationID, let code): SignInWithPhoneNumberRequest(sessionInfo: verificationID, code: code, idToken: idToken)
        case .temporaryProof(let proof, let phoneNumber):
            SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: phoneNumber, idToken: idToken)
        }
    }
}

extension AuthCredential {
    /// A phone credential where any credential goes (`signIn(with:)`, `link(with:)`, `reauthenticate(with:)`).
    public init(_ phone: PhoneAuthCredential) {
        self.init(provider: PhoneAuthProvider.id, proof: .phone(phone))
    }
}
