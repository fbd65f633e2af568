/// Firebase's `MfaFactor`: one second factor as an admin sets it (`mfa.enrollments` of `accounts:update`) or an import
/// brings it (`mfaInfo` of `accounts:batchCreate` and of `firebase auth:export`'s file): a phone factor's number
/// (`phoneInfo`), with the id and enrollment time of a factor it keeps.
public struct MfaFactor: Sendable, Codable, Equatable {
    public var mfaEnrollmentId: String?
    public var displayName: String?
    public var phoneInfo: String?
    public var enrolledAt: String?
    /// Present for a TOTP factor, which neither an admin nor an import can enroll (its secret never leaves Firebase).
    public var totpInfo: OpaqueObject?

    public init(mfaEnrollmentId: String? = nil, displayName: String? = nil, phoneInfo: String?, enrolledAt: String? = nil) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.phoneInfo = phoneInfo
        self.enrolledAt = enrolledAt
    }
}
