/// Firebase's `StartMfaSignInRequest` (`v2 accounts/mfaSignIn:start`): sends an SMS code for a phone factor. TOTP
/// factors have no start step, so Latchkey only answers it with the errors Firebase gives.
public struct StartMfaSignInRequest: Sendable, Codable, Equatable {
    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String?) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
    }
}
