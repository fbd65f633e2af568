/// Firebase's `MfaEnrollment`: one second factor as `accounts:lookup` and a second-factor challenge (`mfaInfo`) list
/// it. The SDKs tell the kind of factor by which key it has: `totpInfo` (always an empty object) or `phoneInfo`.
public struct MfaEnrollment: Sendable, Codable, Equatable {
    public var mfaEnrollmentId: String
    public var displayName: String?
    /// RFC 3339 UTC with milliseconds (`2026-11-22T10:05:12.345Z`), which the iOS SDK's date format requires.
    public var enrolledAt: String
    /// An empty object, which is all Firebase says of a TOTP factor.
    public var totpInfo: OpaqueObject?
    /// A phone factor's number: whole to its owner and to admins, masked but for its last four digits in a sign-in
    /// challenge, as Firebase masks it.
    public var phoneInfo: String?

    public init(mfaEnrollmentId: String, displayName: String? = nil, enrolledAt: String, totpInfo: OpaqueObject? = OpaqueObject(), phoneInfo: String? = nil) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.totpInfo = totpInfo
        self.phoneInfo = phoneInfo
    }
}
