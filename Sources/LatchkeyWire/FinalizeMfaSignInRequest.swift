/// Firebase's `FinalizeMfaSignInRequest` (`v2 accounts/mfaSignIn:finalize`): a code from one of the account's
/// authenticator apps, finishing a sign-in its first factor started. TOTP has no start step.
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
    /// SMS, which Latchkey does not offer.
    public var phoneVerificationInfo: OpaqueObject?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String?, totpVerificationInfo: TotpVerificationInfo?) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.totpVerificationInfo = totpVerificationInfo
    }
}
