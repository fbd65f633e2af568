/// Firebase's `MfaEnrollment`: one second factor as `accounts:lookup` and a second-factor challenge (`mfaInfo`) list
/// it. `totpInfo` is always present, empty: the SDKs tell the kind of factor by that key alone.
public struct MfaEnrollment: Sendable, Codable, Equatable {
    public var mfaEnrollmentId: String
    public var displayName: String?
    /// RFC 3339 UTC with milliseconds (`2026-11-22T10:05:12.345Z`), which the iOS SDK's date format requires.
    public var enrolledAt: String
    /// An empty object, which is all Firebase says of a TOTP factor.
    public var totpInfo = OpaqueObject()

    public init(mfaEnrollmentId: String, displayName: String? = nil, enrolledAt: String) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
    }
}
