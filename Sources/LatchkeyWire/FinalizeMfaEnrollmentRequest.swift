/// Firebase's `FinalizeMfaEnrollmentRequest` (`v2 accounts/mfaEnrollment:finalize`): the first code from the
/// authenticator app, or the code texted to the phone, which enrolls it.
public struct FinalizeMfaEnrollmentRequest: Sendable, Codable, Equatable {
    public struct TotpVerificationInfo: Sendable, Codable, Equatable {
        public var sessionInfo: String?
        public var verificationCode: String?

        public init(sessionInfo: String?, verificationCode: String?) {
            self.sessionInfo = sessionInfo
            self.verificationCode = verificationCode
        }
    }

    public var idToken: String?
    /// A name for the factor; the JS SDK may send null, read as none.
    public var displayName: String?
    public var totpVerificationInfo: TotpVerificationInfo?
    /// A code texted to a phone factor.
    public var phoneVerificationInfo: PhoneVerificationInfo?

    public init(
        idToken: String?, displayName: String? = nil, totpVerificationInfo: TotpVerificationInfo?, phoneVerificationInfo: PhoneVerificationInfo? = nil
    ) {
        self.idToken = idToken
        self.displayName = displayName
        self.totpVerificationInfo = totpVerificationInfo
        self.phoneVerificationInfo = phoneVerificationInfo
    }
}
