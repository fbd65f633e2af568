/// Firebase's `StartMfaEnrollmentRequest` (`v2 accounts/mfaEnrollment:start`): draw a TOTP secret for the signed-in user.
public struct StartMfaEnrollmentRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    /// The SDKs send `{}`.
    public var totpEnrollmentInfo: OpaqueObject?
    /// SMS, which Latchkey does not offer.
    public var phoneEnrollmentInfo: OpaqueObject?

    public init(idToken: String?, totpEnrollmentInfo: OpaqueObject? = OpaqueObject(), phoneEnrollmentInfo: OpaqueObject? = nil) {
        self.idToken = idToken
        self.totpEnrollmentInfo = totpEnrollmentInfo
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
    }
}
