/// Firebase's `StartMfaEnrollmentRequest` (`v2 accounts/mfaEnrollment:start`): draw a TOTP secret for the signed-in
/// user, or text a code to the phone to enroll.
public struct StartMfaEnrollmentRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    /// The SDKs send `{}`.
    public var totpEnrollmentInfo: OpaqueObject?
    /// The phone to enroll and the proof that the real app asks.
    public var phoneEnrollmentInfo: SendVerificationCodeRequest?

    public init(idToken: String?, totpEnrollmentInfo: OpaqueObject? = OpaqueObject(), phoneEnrollmentInfo: SendVerificationCodeRequest? = nil) {
        self.idToken = idToken
        self.totpEnrollmentInfo = totpEnrollmentInfo
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
    }
}
