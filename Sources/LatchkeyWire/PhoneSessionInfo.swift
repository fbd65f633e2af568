/// The handle of a code texted for a second factor: `phoneSessionInfo` of `mfaEnrollment:start`'s answer and
/// `phoneResponseInfo` of `mfaSignIn:start`'s (Firebase's `StartMfaPhoneResponseInfo`).
public struct PhoneSessionInfo: Sendable, Codable, Equatable {
    public var sessionInfo: String

    public init(sessionInfo: String) {
        self.sessionInfo = sessionInfo
    }
}
