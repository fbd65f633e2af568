import LatchkeyDomain
import LatchkeyWire

/// An answer to a first factor: the session's tokens, or (for an account with second factors) the challenge that
/// replaces them. Never both, and never a challenge key on a normal answer: the JS SDK treats the mere presence of
/// `mfaPendingCredential` as a challenge.
protocol FirstFactorResponse {
    var idToken: String? { get set }
    var refreshToken: String? { get set }
    var expiresIn: String? { get set }
    var mfaPendingCredential: String? { get set }
    var mfaInfo: [MfaEnrollment]? { get set }
}

extension FirstFactorResponse {
    mutating func answer(_ result: SignInResult) {
        switch result {
        case .signedIn(let session):
            (idToken, refreshToken, expiresIn) = (session.idToken, session.refreshToken, String(session.expiresIn))
        case .secondFactorRequired(let required):
            mfaPendingCredential = required.pendingCredential
            mfaInfo = required.factors.map { MfaEnrollment($0, masked: true) }
        }
    }
}

extension VerifyPasswordResponse: FirstFactorResponse {}
extension EmailLinkSigninResponse: FirstFactorResponse {}
extension SignInWithIdpResponse: FirstFactorResponse {}
extension SignInWithCustomTokenResponse: FirstFactorResponse {}
