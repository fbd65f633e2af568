/// Firebase's `FinalizeMfaSignInRequest` (`v2 accounts/mfaSignIn:finalize`): a code from one of the account's
/// authenticator apps, or the one texted to its phone factor, finishing a sign-in its first factor started.
public struct FinalizeMfaSignInRequest: Sendable, Codable, Equatable {
    public struct TotpVerificationInfo: Sendable, Codable, Equatable {
        public var verificationCode: String?

        public init(verificationCode: String?) {
            self.verificationCode = verificationCode
        }
    }

    public var mfaPendingCredential: String?
    /// Which factor the code is from; "only required for TOTP".
    public var mfaEnrollmentId: String?
    public var totpVerificationInfo: TotpVerificationInfo?
    /// A code texted to a phone factor.
    public var phoneVerificationInfo: PhoneVerificationInfo?

    public init(
        mfaPendingCredential: String?, mfaEnrollmentId: String?, totpVerificationInfo: TotpVerificationInfo?,
        phoneVerificationInfo: PhoneVerificationInfo? = nil
    ) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.totpVerificationInfo = totpVerificationInfo
        self.phoneVerificationInfo = phoneVerificationInfo
    }
}
