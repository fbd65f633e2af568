/// Firebase's `WithdrawMfaRequest` (`v2 accounts/mfaEnrollment:withdraw`): remove one of the signed-in user's factors.
public struct WithdrawMfaRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    public var mfaEnrollmentId: String?

    public init(idToken: String?, mfaEnrollmentId: String?) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
    }
}
