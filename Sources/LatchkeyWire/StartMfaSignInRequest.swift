/// Firebase's `StartMfaSignInRequest` (`v2 accounts/mfaSignIn:start`): texts a code to a phone factor. TOTP factors
/// have no start step.
public struct StartMfaSignInRequest: Sendable, Codable, Equatable {
    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?
    /// The proof that the real app asks (no number: the factor names it).
    public var phoneSignInInfo: SendVerificationCodeRequest?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String?, phoneSignInInfo: SendVerificationCodeRequest? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneSignInInfo = phoneSignInInfo
    }
}
