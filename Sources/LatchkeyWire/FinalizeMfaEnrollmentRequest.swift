/// Firebase's `FinalizeMfaEnrollmentRequest` (`v2 accounts/mfaEnrollment:finalize`): the first code from the
/// authenticator app, which enrolls it.
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
    /// SMS, which Latchkey does not offer.
    public var phoneVerificationInfo: OpaqueObject?

    public init(idToken: String?, displayName: String? = nil, totpVerificationInfo: TotpVerificationInfo?) {
        self.idToken = idToken
        self.displayName = displayName
        self.totpVerificationInfo = totpVerificationInfo
    }
}
