/// Firebase's `StartMfaEnrollmentRequest` (`v2 accounts/mfaEnrollment:start`): draw a TOTP secret for the signed-in user.
public struct StartMfaEnrollmentRequest: Sendable, Codable, Equatable {
    /// Any JSON object: the SDKs send `{}` for TOTP, and Latchkey offers nothing for SMS.
    public struct EnrollmentInfo: Sendable, Codable, Equatable {
        public init() {}

        /// Refuses anything but an object, which the synthesized decoder of a struct without fields would not.
        public init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: AnyKey.self)
        }
    }

    public var idToken: String?
    public var totpEnrollmentInfo: EnrollmentInfo?
    /// SMS, which Latchkey does not offer.
    public var phoneEnrollmentInfo: EnrollmentInfo?

    public init(idToken: String?, totpEnrollmentInfo: EnrollmentInfo? = EnrollmentInfo(), phoneEnrollmentInfo: EnrollmentInfo? = nil) {
        self.idToken = idToken
        self.totpEnrollmentInfo = totpEnrollmentInfo
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
    }
}
