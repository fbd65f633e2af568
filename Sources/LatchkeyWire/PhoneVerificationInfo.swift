/// A texted code sent back for a second factor: `phoneVerificationInfo` of `mfaEnrollment:finalize` and
/// `mfaSignIn:finalize` (Firebase's `FinalizeMfaPhoneRequestInfo`).
public struct PhoneVerificationInfo: Sendable, Codable, Equatable {
    public var sessionInfo: String?
    public var code: String?
    /// Sent by some SDKs beside the code; the code's session already names the number.
    public var phoneNumber: String?
    /// Android's instant verification, which needs Google Play's servers: refused.
    public var androidVerificationProof: String?

    public init(sessionInfo: String?, code: String?, phoneNumber: String? = nil) {
        self.sessionInfo = sessionInfo
        self.code = code
        self.phoneNumber = phoneNumber
    }
}
